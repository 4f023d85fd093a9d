package com.statefulcvm.simulator.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.statefulcvm.simulator.SimClient;
import com.statefulcvm.simulator.SimulatorHttpTestBase;

class FaultInjectionApiTest extends SimulatorHttpTestBase {

    private SimClient.Response addFault(Map<String, Object> fault) {
        SimClient.Response response = sim.post(SimClient.ADMIN + "/faults", fault);
        assertThat(response.status()).as(response.toString()).isEqualTo(200);
        return response;
    }

    @Test
    void faultAnswersTheNextMatchingCallsOnlyAndChangesNothing() {
        JsonNode before = createRunningApp("faulty-1");
        int eventsBefore = transitions("faulty-1").size();
        addFault(Map.of("method", "patch", "pathPattern", "/cvms/*/docker-compose", "status", 503, "times", 2));

        for (int i = 0; i < 2; i++) {
            assertThat(sim.get(api("/cvms/faulty-1")).status()).as("other methods pass").isEqualTo(200);
            SimClient.Response faulted = patchCompose("faulty-1", "services: {}\n");
            assertThat(faulted.status()).isEqualTo(503);
            assertThat(faulted.json().get("detail").asText()).isEqualTo("Service temporarily unavailable");
        }
        JsonNode unchanged = cvm("faulty-1");
        assertThat(unchanged.get("compose_hash").asText()).isEqualTo(before.get("compose_hash").asText());
        assertThat(unchanged.get("status").asText()).isEqualTo("running");
        assertThat(transitions("faulty-1")).hasSize(eventsBefore);
        assertThat(sim.get(SimClient.ADMIN + "/faults").json()).isEmpty();

        SimClient.Response third = patchCompose("faulty-1", "services: {}\n");
        assertThat(third.status()).isEqualTo(202);
    }

    @Test
    void tooManyRequestsCarriesRetryAfter() {
        addFault(Map.of("method", "GET", "pathPattern", "/apps/**", "status", 429, "times", 1,
                "retryAfterSeconds", 7));
        SimClient.Response limited = sim.get(api("/apps/" + "a".repeat(40)));
        assertThat(limited.status()).isEqualTo(429);
        assertThat(limited.headers().firstValue("Retry-After")).hasValue("7");
        assertThat(limited.json().get("detail").asText()).isEqualTo("Too many requests");
        assertThat(sim.get(api("/apps/" + "a".repeat(40))).status()).as("used up").isEqualTo(404);
    }

    @Test
    void retryAfterDefaultsToOneSecond() {
        addFault(Map.of("pathPattern", "/cvms/**", "status", 429));
        SimClient.Response limited = sim.post(api("/cvms/anything/restart"), null);
        assertThat(limited.status()).isEqualTo(429);
        assertThat(limited.headers().firstValue("Retry-After")).hasValue("1");
    }

    @Test
    void errorCodeGivesTheStructuredShapeAndFullPathsAndAnyMethodMatch() {
        createRunningApp("coded-1");
        addFault(Map.of("method", "*", "pathPattern", "/simulator/api/v1/cvms/coded-1/stop", "status", 409,
                "errorCode", "ERR-02-005"));
        SimClient.Response faulted = sim.post(api("/cvms/coded-1/stop"), null);
        assertThat(faulted.status()).isEqualTo(409);
        assertThat(faulted.json().get("error_code").asText()).isEqualTo("ERR-02-005");
        assertThat(faulted.json().get("message").asText()).isNotBlank();
        assertThat(faulted.json().get("details").isArray()).isTrue();
        assertThat(cvm("coded-1").get("status").asText()).isEqualTo("running");
        assertThat(sim.post(api("/cvms/coded-1/stop"), null).status()).isEqualTo(200);
    }

    @Test
    void bodiesFollowTheStatus() {
        addFault(Map.of("pathPattern", "/status/batch", "status", 500));
        addFault(Map.of("pathPattern", "/status/batch", "status", 409));
        addFault(Map.of("pathPattern", "/status/batch", "status", 418));
        Map<String, Object> body = Map.of("vm_uuids", java.util.List.of());
        assertThat(sim.post(api("/status/batch"), body).json().get("detail").asText())
                .isEqualTo("Internal server error");
        assertThat(sim.post(api("/status/batch"), body).json().get("detail").asText())
                .isEqualTo("Another operation is in progress on this CVM");
        SimClient.Response teapot = sim.post(api("/status/batch"), body);
        assertThat(teapot.status()).isEqualTo(418);
        assertThat(teapot.json().get("detail").asText()).isEqualTo("Injected fault");
        assertThat(sim.post(api("/status/batch"), body).status()).isEqualTo(200);
    }

    @Test
    void faultsAreListedAndCleared() {
        addFault(Map.of("method", "GET", "pathPattern", "/cvms/*", "status", 503, "times", 3));
        JsonNode pending = sim.get(SimClient.ADMIN + "/faults").json();
        assertThat(pending).hasSize(1);
        assertThat(pending.get(0).get("remaining").asInt()).isEqualTo(3);
        assertThat(pending.get(0).get("pathPattern").asText()).isEqualTo("/cvms/*");
        sim.get(api("/cvms/x-unknown"));
        JsonNode used = sim.get(SimClient.ADMIN + "/faults").json().get(0);
        assertThat(used.get("remaining").asInt()).isEqualTo(2);
        assertThat(used.get("times").asInt()).isEqualTo(3);

        assertThat(sim.delete(SimClient.ADMIN + "/faults").status()).isEqualTo(200);
        assertThat(sim.get(SimClient.ADMIN + "/faults").json()).isEmpty();
        assertThat(sim.get(api("/cvms/x-unknown")).status()).isEqualTo(404);
    }

    @Test
    void invalidFaultIsRefused() {
        assertThat(sim.post(SimClient.ADMIN + "/faults", Map.of("status", 200)).status()).isEqualTo(400);
        assertThat(sim.post(SimClient.ADMIN + "/faults", Map.of("status", 503, "times", 0)).status()).isEqualTo(400);
    }
}
