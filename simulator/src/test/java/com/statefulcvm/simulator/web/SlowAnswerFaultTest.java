package com.statefulcvm.simulator.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.statefulcvm.simulator.SimClient;
import com.statefulcvm.simulator.SimulatorHttpTestBase;

/** Faults with {@code delayMs}: a slow platform, and a timeout in which the change is made all the same. */
class SlowAnswerFaultTest extends SimulatorHttpTestBase {

    private static final String NEW_COMPOSE = "services:\n  web:\n    image: nginx:1.28\n";

    private JsonNode addFault(Map<String, Object> fault) {
        SimClient.Response response = sim.post(SimClient.ADMIN + "/faults", fault);
        assertThat(response.status()).as(response.toString()).isEqualTo(200);
        return response.json();
    }

    @Test
    void aDelayWithoutStatusHoldsTheCallAndThenLetsTheSimulatedCloudAnswer() {
        createRunningApp("slow-1");
        JsonNode fault = addFault(Map.of("method", "GET", "pathPattern", "/cvms/*", "delayMs", 400));
        assertThat(fault.get("status").asInt()).isZero();
        assertThat(fault.get("delayMs").asLong()).isEqualTo(400);

        long start = System.nanoTime();
        SimClient.Response slow = sim.get(api("/cvms/slow-1"));
        long tookMs = (System.nanoTime() - start) / 1_000_000;
        assertThat(slow.status()).isEqualTo(200);
        assertThat(slow.json().get("name").asText()).isEqualTo("slow-1");
        assertThat(tookMs).isGreaterThanOrEqualTo(400);
        assertThat(sim.get(SimClient.ADMIN + "/faults").json()).as("used up").isEmpty();
    }

    @Test
    void aDelayWithAStatusAnswersTheFaultLateAndChangesNothing() {
        createRunningApp("slow-2");
        String before = cvm("slow-2").get("compose_hash").asText();
        addFault(Map.of("method", "PATCH", "pathPattern", "/cvms/*/docker-compose", "status", 503, "delayMs", 300));

        long start = System.nanoTime();
        SimClient.Response faulted = patchCompose("slow-2", NEW_COMPOSE);
        assertThat((System.nanoTime() - start) / 1_000_000).isGreaterThanOrEqualTo(300);
        assertThat(faulted.status()).isEqualTo(503);
        assertThat(faulted.headers().firstValue("Retry-After")).hasValue("1");
        assertThat(cvm("slow-2").get("compose_hash").asText()).isEqualTo(before);
    }

    @Test
    void aClientThatTimesOutOnASlowUpdateStillFindsTheUpdateMade() {
        createRunningApp("slow-3");
        String before = cvm("slow-3").get("compose_hash").asText();
        addFault(Map.of("method", "PATCH", "pathPattern", "/cvms/*/docker-compose", "delayMs", 800));

        HttpRequest patch = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + api("/cvms/slow-3/docker-compose")))
                .timeout(Duration.ofMillis(200))
                .header("X-API-Key", API_KEY)
                .header("Content-Type", "text/yaml")
                .method("PATCH", HttpRequest.BodyPublishers.ofString(NEW_COMPOSE))
                .build();
        assertThatThrownBy(() -> HttpClient.newHttpClient().send(patch, HttpResponse.BodyHandlers.ofString()))
                .isInstanceOf(HttpTimeoutException.class);

        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50))
                .until(() -> !before.equals(cvm("slow-3").get("compose_hash").asText()));
        assertThat(transitions("slow-3")).contains("running->updating");
        assertThat(awaitSettled("slow-3", "running").get("compose_file").get("docker_compose_file").asText())
                .isEqualTo(NEW_COMPOSE);
    }

    @Test
    void aFaultNeedsAStatusOrADelayAndTheDelayIsBounded() {
        SimClient.Response neither = sim.post(SimClient.ADMIN + "/faults", Map.of("pathPattern", "/cvms/*"));
        assertThat(neither.status()).isEqualTo(400);
        assertThat(neither.body()).contains("delayMs");
        assertThat(sim.post(SimClient.ADMIN + "/faults", Map.of("delayMs", -1)).status()).isEqualTo(400);
        assertThat(sim.post(SimClient.ADMIN + "/faults", Map.of("delayMs", 120_001)).status()).isEqualTo(400);
        assertThat(sim.post(SimClient.ADMIN + "/faults", Map.of("status", 200, "delayMs", 10)).status()).isEqualTo(400);
        assertThat(sim.get(SimClient.ADMIN + "/faults").json()).isEmpty();
    }
}
