package com.statefulcvm.simulator.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.statefulcvm.simulator.SimClient;
import com.statefulcvm.simulator.SimulatorHttpTestBase;

class ValidationApiTest extends SimulatorHttpTestBase {

    @ParameterizedTest
    @ValueSource(strings = {"abcd", "1abcde", "under_score", "-leading", "with space"})
    void invalidNameIsRefusedWithTheStructuredShape(String name) {
        SimClient.Response response = sim.post(api("/cvms/provision"),
                Map.of("name", name, "compose_file", Map.of("docker_compose_file", COMPOSE)));
        assertThat(response.status()).isEqualTo(400);
        JsonNode body = response.json();
        assertThat(body.get("error_code").asText()).startsWith("ERR-01-");
        assertThat(body.get("message").asText()).isNotBlank();
        assertThat(body.get("details").get(0).get("field").asText()).isEqualTo("name");
        assertThat(body.get("details").get(0).get("value").asText()).isEqualTo(name);
        assertThat(body.get("details").get(0).get("message").asText()).isNotBlank();
        assertThat(body.get("suggestions").isArray()).isTrue();
        assertThat(body.get("links").isArray()).isTrue();
    }

    @Test
    void longestValidNameIsAccepted() {
        String name = "a" + "b".repeat(62);
        assertThat(sim.post(api("/cvms/provision"), Map.of("name", name,
                "compose_file", Map.of("docker_compose_file", COMPOSE))).status()).isEqualTo(200);
        assertThat(sim.post(api("/cvms/provision"), Map.of("name", name + "c",
                "compose_file", Map.of("docker_compose_file", COMPOSE))).status()).isEqualTo(400);
    }

    @Test
    void duplicateNameAnswers409WithErr01004() {
        JsonNode first = createApp("taken-name");
        SimClient.Response provision = sim.post(api("/cvms/provision"),
                Map.of("name", "taken-name", "compose_file", Map.of("docker_compose_file", COMPOSE)));
        assertThat(provision.status()).isEqualTo(409);
        JsonNode body = provision.json();
        assertThat(body.get("error_code").asText()).isEqualTo("ERR-01-004");
        assertThat(body.get("message").asText()).isEqualTo("CVM name already exists");
        assertThat(body.get("details").get(0).get("field").asText()).isEqualTo("name");
        assertThat(body.get("details").get(0).get("value").asText()).isEqualTo("taken-name");

        SimClient.Response instance = sim.post(api("/apps/" + first.get("app_id").asText() + "/instances"),
                Map.of("name", "taken-name"));
        assertThat(instance.status()).isEqualTo(409);
        assertThat(instance.json().get("error_code").asText()).isEqualTo("ERR-01-004");
        assertThat(sim.get(api("/apps/" + first.get("app_id").asText() + "/cvms")).json()).hasSize(1);
    }

    @Test
    void unreadableJsonAnswers422() {
        SimClient.Response response = sim.post(api("/cvms/provision"), "{\"name\": ");
        assertThat(response.status()).isEqualTo(422);
        JsonNode issue = response.json().get("detail").get(0);
        assertThat(issue.get("loc").get(0).asText()).isEqualTo("body");
        assertThat(issue.get("msg").asText()).isNotBlank();
        assertThat(issue.get("type").asText()).isEqualTo("json_invalid");
    }

    @Test
    void missingFieldsAnswer422WithTheirLocation() {
        JsonNode noName = sim.post(api("/cvms/provision"), Map.of("compose_file", Map.of("docker_compose_file", "x")))
                .json().get("detail").get(0);
        assertThat(noName.get("loc").toString()).isEqualTo("[\"body\",\"name\"]");
        assertThat(noName.get("type").asText()).isEqualTo("missing");

        SimClient.Response noCompose = sim.post(api("/cvms/provision"),
                Map.of("name", "valid-name", "compose_file", Map.of()));
        assertThat(noCompose.status()).isEqualTo(422);
        assertThat(noCompose.json().get("detail").get(0).get("loc").toString())
                .isEqualTo("[\"body\",\"compose_file\",\"docker_compose_file\"]");

        SimClient.Response noHash = sim.post(api("/cvms"), Map.of("app_id", "ab".repeat(20)));
        assertThat(noHash.status()).isEqualTo(422);
        assertThat(noHash.json().get("detail").get(0).get("loc").get(1).asText()).isEqualTo("compose_hash");

        SimClient.Response noBody = sim.post(api("/status/batch"), null);
        assertThat(noBody.status()).isEqualTo(422);

        SimClient.Response wrongType = sim.post(api("/status/batch"), Map.of("vm_uuids", 12));
        assertThat(wrongType.status()).isEqualTo(422);
    }

    @Test
    void unknownCvmOrAppAnswers404() {
        SimClient.Response cvm = sim.get(api("/cvms/cvm_doesnotexist"));
        assertThat(cvm.status()).isEqualTo(404);
        assertThat(cvm.json().get("detail").asText()).isEqualTo("CVM not found");
        assertThat(sim.post(api("/cvms/no-such-cvm/restart"), null).status()).isEqualTo(404);
        assertThat(patchCompose("no-such-cvm", "x").status())
                .isEqualTo(404);
        assertThat(sim.delete(api("/cvms/no-such-cvm")).status()).isEqualTo(404);
        SimClient.Response app = sim.get(api("/apps/" + "0".repeat(40)));
        assertThat(app.status()).isEqualTo(404);
        assertThat(app.json().get("detail").asText()).isEqualTo("App not found");
        assertThat(sim.post(api("/cvms"), Map.of("app_id", "0".repeat(40), "compose_hash", "0".repeat(64))).status())
                .isEqualTo(404);
    }
}
