package com.statefulcvm.simulator.web;

import com.fasterxml.jackson.databind.JsonNode;
import com.statefulcvm.simulator.SimulatorHttpTestBase;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Node placement and instance type as the orchestrator's per-slot overrides send them: {@code node_id} on provision and
 * on a new instance of the app (the orchestrator's client sends it as a JSON string, the API documents a number;
 * both are taken), {@code instance_type} and {@code disk_size} on provision; each CVM reports them back in
 * {@code node_info} and {@code resource}.
 */
class PlacementApiTest extends SimulatorHttpTestBase {

    @Test
    void theFirstCvmAndANewInstanceRunWhereAndAsTheyWereAskedTo() {
        JsonNode provisioned = sim.post(api("/cvms/provision"), Map.of("name", "placed-0", "instance_type", "tdx.medium",
                "disk_size", 40, "teepod_id", 3, "compose_file", Map.of("docker_compose_file", COMPOSE))).json();
        assertThat(provisioned.get("instance_type").asText()).isEqualTo("tdx.medium");
        assertThat(provisioned.get("teepod_id").asInt()).isEqualTo(3);
        String appId = provisioned.get("app_id").asText();
        sim.post(api("/cvms"), Map.of("app_id", appId, "compose_hash", provisioned.get("compose_hash").asText()));
        awaitNoCreation();
        JsonNode second = sim.post(api("/apps/" + appId + "/instances"), Map.of("name", "placed-1", "node_id", 5)).json();
        assertThat(second.get("node_info").get("id").asInt()).isEqualTo(5);
        awaitNoCreation();
        JsonNode third = sim.post(api("/apps/" + appId + "/instances"), Map.of("name", "placed-2")).json();

        JsonNode first = awaitSettled("placed-0", "running");
        assertThat(first.get("node_info").get("id").asInt()).isEqualTo(3);
        assertThat(first.get("resource").get("instance_type").asText()).isEqualTo("tdx.medium");
        assertThat(first.get("disk_size").asInt()).isEqualTo(40);
        assertThat(awaitSettled("placed-1", "running").get("node_info").get("id").asInt()).isEqualTo(5);
        assertThat(awaitSettled(third.get("name").asText(), "running").get("node_info").get("id").asInt())
                .as("without node_id: the app's node").isEqualTo(3);
    }

    /** The SDK sends the node as teepod_id; a node_id in the provision body is not read (the lenient simulator did). */
    @Test
    void provisionReadsTheNodeFromTeepodIdOnly() {
        JsonNode ignored = sim.post(api("/cvms/provision"), Map.of("name", "unplaced-0", "node_id", 3,
                "compose_file", Map.of("docker_compose_file", COMPOSE))).json();
        assertThat(ignored.get("teepod_id").asInt()).as("node_id is not a field of the SDK's request").isEqualTo(1);

        JsonNode placed = sim.post(api("/cvms/provision"), Map.of("name", "unplaced-1", "teepod_id", 3,
                "compose_file", Map.of("docker_compose_file", COMPOSE))).json();
        assertThat(placed.get("teepod_id").asInt()).isEqualTo(3);
    }
}
