package com.statefulcvm.simulator.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.statefulcvm.simulator.SimClient;
import com.statefulcvm.simulator.SimulatorHttpTestBase;

class AdminEventsTest extends SimulatorHttpTestBase {

    @Test
    void eventsAreNumberedInOrderWithCamelCaseFields() {
        JsonNode first = createRunningApp("journal-1");
        addInstance(first.get("app_id").asText(), "journal-2");
        awaitSettled("journal-2", "running");
        sim.post(api("/cvms/journal-1/stop"), null);
        awaitSettled("journal-1", "stopped");

        JsonNode events = sim.get(SimClient.ADMIN + "/events").json();
        List<Long> seqs = new ArrayList<>();
        Instant previous = Instant.EPOCH;
        for (JsonNode event : events) {
            seqs.add(event.get("seq").asLong());
            Instant at = Instant.parse(event.get("at").asText());
            assertThat(at).isAfterOrEqualTo(previous);
            previous = at;
            assertThat(event.has("vmUuid")).isTrue();
            assertThat(event.has("from")).isTrue();
        }
        assertThat(seqs).first().isEqualTo(1L);
        for (int i = 1; i < seqs.size(); i++) {
            assertThat(seqs.get(i)).isEqualTo(seqs.get(i - 1) + 1);
        }
        JsonNode creation = events.get(0);
        assertThat(creation.get("cvm").asText()).isEqualTo("journal-1");
        assertThat(creation.get("vmUuid").asText()).isEqualTo(first.get("vm_uuid").asText());
        assertThat(creation.get("from").isNull()).isTrue();
        assertThat(creation.get("to").asText()).isEqualTo("creating");
        assertThat(transitions("journal-2")).containsExactly("null->pending", "pending->starting",
                "starting->running");
        assertThat(transitions("journal-1")).endsWith("running->stopping", "stopping->stopped");

        long lastSeq = seqs.get(seqs.size() - 1);
        assertThat(sim.get(SimClient.ADMIN + "/events?sinceSeq=" + lastSeq).json()).isEmpty();
        JsonNode tail = sim.get(SimClient.ADMIN + "/events?sinceSeq=" + (lastSeq - 2)).json();
        assertThat(tail).hasSize(2);
        assertThat(tail.get(1).get("to").asText()).isEqualTo("stopped");
    }

    @Test
    void resetForgetsEverything() {
        JsonNode cvm = createRunningApp("forgotten-1");
        sim.post(SimClient.ADMIN + "/faults", Map.of("pathPattern", "/nothing", "status", 500));
        assertThat(sim.post(SimClient.ADMIN + "/reset", null).status()).isEqualTo(204);
        assertThat(sim.get(SimClient.ADMIN + "/events").json()).isEmpty();
        assertThat(sim.get(SimClient.ADMIN + "/faults").json()).isEmpty();
        assertThat(sim.get(api("/cvms/forgotten-1")).status()).isEqualTo(404);
        assertThat(sim.get(api("/apps/" + cvm.get("app_id").asText())).status()).isEqualTo(404);
        createApp("forgotten-1");
        assertThat(sim.get(SimClient.ADMIN + "/events").json().get(0).get("seq").asLong()).isEqualTo(1L);
    }

    @Test
    void timingsChangeAtRunTime() {
        SimClient.Response changed = sim.put(SimClient.ADMIN + "/timings", Map.of("restartMs", 1234));
        assertThat(changed.status()).isEqualTo(200);
        assertThat(changed.json().get("restartMs").asLong()).isEqualTo(1234);
        assertThat(changed.json().get("createMs").asLong()).isEqualTo(150);
        assertThat(sim.get(SimClient.ADMIN + "/timings").json().get("restartMs").asLong()).isEqualTo(1234);
        assertThat(sim.put(SimClient.ADMIN + "/timings", Map.of("stopMs", -1)).status()).isEqualTo(400);
    }

    @Test
    void adminCallsOnUnknownCvmsAnswer404() {
        assertThat(sim.post(SimClient.ADMIN + "/cvms/nobody-here/crash", null).status()).isEqualTo(404);
        assertThat(sim.post(SimClient.ADMIN + "/cvms/nobody-here/health", Map.of("healthy", false)).status())
                .isEqualTo(404);
    }
}
