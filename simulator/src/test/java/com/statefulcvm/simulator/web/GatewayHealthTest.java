package com.statefulcvm.simulator.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.statefulcvm.simulator.SimClient;
import com.statefulcvm.simulator.SimulatorHttpTestBase;

class GatewayHealthTest extends SimulatorHttpTestBase {

    private SimClient.Response probe(String instanceId, int port, String path) {
        return sim.send("GET", "/simulator/gateway/" + instanceId + "-" + port + path, null, null, null);
    }

    private void assertNoUpstream(SimClient.Response response) {
        assertThat(response.status()).isEqualTo(502);
        assertThat(response.body()).isEqualTo("no upstream");
    }

    @Test
    void healthFollowsTheCvmThroughCrashAndStart() {
        String id = createRunningApp("probed-1").get("instance_id").asText();

        SimClient.Response ok = probe(id, 8080, "/health");
        assertThat(ok.status()).isEqualTo(200);
        assertThat(ok.json().get("status").asText()).isEqualTo("ok");
        assertThat(sim.send("POST", "/simulator/gateway/" + id + "-9000/admin/flush?x=1", "application/json", "{}",
                null).status()).as("any method, port and path").isEqualTo(200);
        assertThat(probe(id, 8080, "").status()).isEqualTo(200);

        SimClient.Response crash = sim.post(SimClient.ADMIN + "/cvms/probed-1/crash", null);
        assertThat(crash.status()).isEqualTo(200);
        assertThat(crash.json().get("status").asText()).isEqualTo("stopped");
        assertThat(cvm("probed-1").get("status").asText()).as("at once").isEqualTo("stopped");
        assertNoUpstream(probe(id, 8080, "/health"));
        assertThat(transitions("probed-1")).endsWith("running->stopped");

        sim.post(api("/cvms/probed-1/start"), null);
        assertNoUpstream(probe(id, 8080, "/health"));
        awaitSettled("probed-1", "running");
        assertThat(probe(id, 8080, "/health").status()).isEqualTo(200);
    }

    @Test
    void unhealthyIsStickyAcrossRestartsUntilChangedBack() {
        String id = createRunningApp("sickly-1").get("instance_id").asText();
        SimClient.Response marked = sim.post(SimClient.ADMIN + "/cvms/sickly-1/health", Map.of("healthy", false));
        assertThat(marked.status()).isEqualTo(200);
        SimClient.Response unhealthy = probe(id, 8080, "/health");
        assertThat(unhealthy.status()).isEqualTo(503);
        assertThat(unhealthy.json().get("status").asText()).isEqualTo("unhealthy");

        sim.post(api("/cvms/sickly-1/restart"), null);
        assertNoUpstream(probe(id, 8080, "/health"));
        awaitSettled("sickly-1", "running");
        assertThat(probe(id, 8080, "/health").status()).isEqualTo(503);

        sim.post(SimClient.ADMIN + "/cvms/sickly-1/health", Map.of("healthy", true));
        assertThat(probe(id, 8080, "/health").status()).isEqualTo(200);
    }

    @Test
    void aComposeMarkedUnhealthyNeverGetsHealthyAndTheOldComposeRecovers() {
        String id = createRunningApp("badrev-1").get("instance_id").asText();
        String bad = "services:\n  web:\n    image: nginx\n    labels: [\"simulator.workload.health=unhealthy\"]\n";
        assertThat(patchCompose("badrev-1", bad).status()).isEqualTo(202);
        awaitSettled("badrev-1", "running");
        assertThat(probe(id, 8080, "/health").status()).isEqualTo(503);

        assertThat(patchCompose("badrev-1", "services:\n  web:\n    image: nginx\n").status()).isEqualTo(202);
        awaitSettled("badrev-1", "running");
        assertThat(probe(id, 8080, "/health").status()).isEqualTo(200);
    }

    @Test
    void noUpstreamWhileBootingUpdatingOrUnknown() {
        sim.put(SimClient.ADMIN + "/timings", Map.of("createMs", 50, "startMs", 1500, "updateMs", 1500));
        assertThat(createApp("booting-1").get("instance_id").isNull()).isTrue();
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(10))
                .until(() -> "starting".equals(cvm("booting-1").get("status").asText()));
        JsonNode booting = cvm("booting-1");
        assertThat(booting.get("instance_id").asText()).as("assigned at first boot").matches("^[0-9a-f]{40}$");
        assertNoUpstream(probe(booting.get("instance_id").asText(), 8080, "/health"));

        String id = awaitSettled("booting-1", "running").get("instance_id").asText();
        assertThat(id).isEqualTo(booting.get("instance_id").asText());
        assertThat(probe(id, 8080, "/health").status()).isEqualTo(200);
        patchCompose("booting-1", "services: {}\n");
        assertNoUpstream(probe(id, 8080, "/health"));
        assertNoUpstream(probe("f".repeat(40), 8080, "/health"));
        assertNoUpstream(probe("not-an-id", 8080, "/"));
    }

    @Test
    void appIdRouteReachesAnyHealthyCvmOfTheApp() {
        String appId = createRunningApp("balanced-1").get("app_id").asText();
        assertThat(probe(appId, 443, "/").status()).isEqualTo(200);
        sim.post(SimClient.ADMIN + "/cvms/balanced-1/crash", null);
        assertNoUpstream(probe(appId, 443, "/"));
    }
}
