package com.statefulcvm.simulator.cloud;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.statefulcvm.simulator.SimulatorProperties;
import com.statefulcvm.simulator.api.CommitRequest;
import com.statefulcvm.simulator.api.InstanceRequest;
import com.statefulcvm.simulator.api.ProvisionRequest;
import com.statefulcvm.simulator.api.ProvisionResult;

/** The integer ids of the older API versions: kept in the state file, never reused, given to files without them. */
class IntegerIdStateFileTest {

    @TempDir
    Path dir;

    private SimulatorProperties properties(Path file) {
        SimulatorProperties properties = new SimulatorProperties();
        properties.setStateFile(file);
        SimulatorProperties.Timings t = properties.getTimings();
        t.setCreateMs(30);
        t.setStartMs(30);
        t.setDeleteMs(30);
        return properties;
    }

    private static String createApp(SimulatedCloud cloud, String name) {
        ProvisionResult provision = cloud.provision(new ProvisionRequest(name, null,
                Map.of("docker_compose_file", "services: {web: {image: nginx}}\n"), null, null, null, null));
        cloud.commit(new CommitRequest(provision.appId(), provision.composeHash(), null, null));
        return provision.appId();
    }

    @Test
    void idsSurviveAReloadAndAreNeverReused() {
        Path file = dir.resolve("state.json");
        String appId;
        try (SimulatedCloud cloud = new SimulatedCloud(properties(file))) {
            appId = createApp(cloud, "ids-one");
            CloudTests.awaitNoCreation(cloud);
            cloud.addInstance(appId, InstanceRequest.named("ids-two"));
            CloudTests.awaitNoCreation(cloud);
            cloud.addInstance(appId, InstanceRequest.named("ids-three"));
            assertThat(cloud.cvm("ids-three").seq()).isEqualTo(3);
            await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(10))
                    .until(() -> !cloud.cvm("ids-three").inProgress());
            cloud.delete("ids-three"); // completed on load if still in flight
        }
        try (SimulatedCloud reloaded = new SimulatedCloud(properties(file))) {
            assertThat(reloaded.cvm("ids-one").seq()).isEqualTo(1);
            assertThat(reloaded.cvm("2").name()).isEqualTo("ids-two");
            assertThat(reloaded.cvms(1, 10, null).total()).as("ids-three is gone").isEqualTo(2);
            CloudTests.awaitNoCreation(reloaded);
            CvmSnapshot four = reloaded.addInstance(appId, InstanceRequest.named("ids-four"));
            assertThat(four.seq()).as("3 belonged to a deleted CVM").isEqualTo(4);
        }
    }

    @Test
    void aStateFileFromBeforeIntegerIdsGetsThemInCreationOrder() throws Exception {
        Path file = dir.resolve("old.json");
        try (SimulatedCloud cloud = new SimulatedCloud(properties(file))) {
            String appId = createApp(cloud, "old-one");
            CloudTests.awaitNoCreation(cloud);
            cloud.addInstance(appId, InstanceRequest.named("old-two"));
        }
        ObjectMapper json = new ObjectMapper();
        ObjectNode state = (ObjectNode) json.readTree(file.toFile());
        state.remove("lastCvmSeq");
        for (JsonNode cvm : state.get("cvms")) {
            ((ObjectNode) cvm).remove("seq");
        }
        for (JsonNode app : state.get("apps")) {
            ((ObjectNode) app).remove("envPubkey");
        }
        Files.writeString(file, json.writeValueAsString(state));

        try (SimulatedCloud reloaded = new SimulatedCloud(properties(file))) {
            assertThat(reloaded.cvm("old-one").seq()).isEqualTo(1);
            assertThat(reloaded.cvm("old-two").seq()).isEqualTo(2);
            assertThat(reloaded.cvm("old-one").envPubkey()).matches("^[0-9a-f]{64}$");
        }
    }
}
