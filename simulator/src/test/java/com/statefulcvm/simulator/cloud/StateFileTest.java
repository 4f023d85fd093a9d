package com.statefulcvm.simulator.cloud;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.statefulcvm.simulator.SimulatorProperties;
import com.statefulcvm.simulator.api.CommitRequest;
import com.statefulcvm.simulator.api.InstanceRequest;
import com.statefulcvm.simulator.api.ProvisionRequest;
import com.statefulcvm.simulator.api.ProvisionResult;

/** The state file: saved after each change, loaded by a new SimulatedCloud with in-flight operations completed. */
class StateFileTest {

    @TempDir
    Path dir;

    private SimulatorProperties properties(Path file) {
        SimulatorProperties properties = new SimulatorProperties();
        properties.setStateFile(file);
        SimulatorProperties.Timings t = properties.getTimings();
        t.setCreateMs(50);
        t.setStartMs(30);
        t.setRestartMs(50);
        t.setUpdateMs(50);
        t.setDeleteMs(50);
        t.setStopMs(50);
        return properties;
    }

    private static void awaitRunning(SimulatedCloud cloud, String name) {
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(10)).until(() -> {
            CvmSnapshot cvm = cloud.cvm(name);
            return "running".equals(cvm.status()) && !cvm.inProgress();
        });
    }

    @Test
    void stateSurvivesANewSimulatedCloudWithInFlightOperationsCompleted() throws Exception {
        Path file = dir.resolve("state/simulator.json");
        SimulatorProperties properties = properties(file);
        String appId;
        String instanceId;
        String newHash;
        long lastSeq;
        try (SimulatedCloud cloud = new SimulatedCloud(properties)) {
            ProvisionResult provision = cloud.provision(new ProvisionRequest("saved-app", null,
                    Map.of("docker_compose_file", "services: {}\n"), null, null, null, null));
            appId = provision.appId();
            cloud.commit(new CommitRequest(appId, provision.composeHash(), null, null));
            CloudTests.awaitNoCreation(cloud);
            cloud.addInstance(appId, InstanceRequest.named("saved-app-2"));
            CloudTests.awaitNoCreation(cloud);
            cloud.addInstance(appId, InstanceRequest.named("saved-app-3"));
            awaitRunning(cloud, "saved-app");
            awaitRunning(cloud, "saved-app-2");
            awaitRunning(cloud, "saved-app-3");
            instanceId = cloud.cvm("saved-app").instanceId();
            cloud.setHealthy("saved-app-2", false);

            // leave operations in flight: they must be completed on load
            properties.getTimings().setUpdateMs(60_000);
            properties.getTimings().setDeleteMs(60_000);
            properties.getTimings().setCreateMs(60_000);
            cloud.updateCompose("saved-app", "services: {web: {}}\n", null, null);
            cloud.delete("saved-app-3");
            CloudTests.awaitNoCreation(cloud);
            cloud.addInstance(appId, InstanceRequest.named("saved-app-4"));
            newHash = cloud.cvm("saved-app").composeHash();
            assertThat(cloud.cvm("saved-app").status()).isEqualTo("updating");
            lastSeq = cloud.events(0).get(cloud.events(0).size() - 1).seq();
        }
        assertThat(Files.readString(file)).contains("saved-app", newHash);

        try (SimulatedCloud reloaded = new SimulatedCloud(properties(file))) {
            CvmSnapshot updated = reloaded.cvm("saved-app");
            assertThat(updated.status()).isEqualTo("running");
            assertThat(updated.inProgress()).isFalse();
            assertThat(updated.operation()).isNull();
            assertThat(updated.composeHash()).isEqualTo(newHash);
            assertThat(updated.instanceId()).isEqualTo(instanceId);

            CvmSnapshot created = reloaded.cvm("saved-app-4");
            assertThat(created.status()).isEqualTo("running");
            assertThat(created.instanceId()).matches("^[0-9a-f]{40}$");

            assertThat(reloaded.appCvms(appId)).extracting(CvmSnapshot::name)
                    .containsExactly("saved-app", "saved-app-2", "saved-app-4");
            assertThat(reloaded.gateway(reloaded.cvm("saved-app-2").instanceId() + "-8080"))
                    .as("health is part of the state").isEqualTo(Upstream.UNHEALTHY);
            assertThat(reloaded.revisions(appId, 1, 20).total()).isEqualTo(5);

            List<CvmEvent> events = reloaded.events(0);
            assertThat(events.get(events.size() - 1).seq()).isGreaterThan(lastSeq);
            assertThat(reloaded.events(lastSeq)).extracting(e -> e.cvm() + ":" + e.from() + "->" + e.to())
                    .contains("saved-app:updating->running", "saved-app-3:deleting->deleted",
                            "saved-app-4:pending->starting", "saved-app-4:starting->running");

            // and it goes on working, saving as it goes
            reloaded.restart("saved-app");
            awaitRunning(reloaded, "saved-app");
            assertThat(reloaded.cvm("saved-app").instanceId()).isEqualTo(instanceId);
        }
        try (SimulatedCloud third = new SimulatedCloud(properties(file))) {
            assertThat(third.events(0)).extracting(CvmEvent::to).endsWith("restarting", "running");
        }
    }

    @Test
    void withoutAFileItStartsEmpty() {
        try (SimulatedCloud cloud = new SimulatedCloud(properties(dir.resolve("absent.json")))) {
            assertThat(cloud.events(0)).isEmpty();
        }
    }
}
