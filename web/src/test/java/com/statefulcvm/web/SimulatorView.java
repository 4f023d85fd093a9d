package com.statefulcvm.web;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.springframework.boot.test.web.client.TestRestTemplate;
import org.springframework.http.HttpEntity;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the end-to-end tests read from the simulator, as an outside observer: its Phala API (what any client sees) and
 * its admin event journal (every status change of every CVM, in order), from which availability over time follows.
 */
public final class SimulatorView {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final TestRestTemplate http;

    public SimulatorView(TestRestTemplate http) {
        this.http = http;
    }

    /** A GET of the simulator's Phala API in version 2026-05-22, with the tests' key; it must answer 200. */
    public JsonNode phala(String path) throws Exception {
        HttpHeaders headers = new HttpHeaders();
        headers.set("X-API-Key", "test-key");
        headers.set("X-Phala-Version", "2026-05-22");
        ResponseEntity<String> response = http.exchange("/simulator/api/v1" + path, HttpMethod.GET,
                new HttpEntity<>(headers), String.class);
        assertThat(response.getStatusCode().value()).as(path + ": " + response.getBody()).isEqualTo(200);
        return JSON.readTree(response.getBody());
    }

    public JsonNode cvm(String name) throws Exception {
        JsonNode cvm = cvmOrNull(name);
        assertThat(cvm).as("CVM " + name).isNotNull();
        return cvm;
    }

    /** Stops the CVM through the simulator's Phala API, as a power loss or an operator would ({@code POST .../stop}). */
    public void stop(String name) {
        lifecycle(name, "stop");
    }

    /** Starts a stopped CVM through the simulator's Phala API, as an operator would ({@code POST .../start}). */
    public void start(String name) {
        lifecycle(name, "start");
    }

    /** Deletes the CVM through the simulator's Phala API ({@code DELETE /cvms/{name}}): its disk goes with it. */
    public void delete(String name) {
        HttpHeaders headers = new HttpHeaders();
        headers.set("X-API-Key", "test-key");
        ResponseEntity<String> response = http.exchange("/simulator/api/v1/cvms/" + name, HttpMethod.DELETE,
                new HttpEntity<>(headers), String.class);
        assertThat(response.getStatusCode().is2xxSuccessful()).as("delete " + name + ": " + response.getBody()).isTrue();
    }

    private void lifecycle(String name, String action) {
        HttpHeaders headers = new HttpHeaders();
        headers.set("X-API-Key", "test-key");
        // the newest shapes (compose_hash, in_progress): without the header the simulator answers the oldest
        headers.set("X-Phala-Version", "2026-05-22");
        ResponseEntity<String> response = http.exchange("/simulator/api/v1/cvms/" + name + "/" + action, HttpMethod.POST,
                new HttpEntity<>(headers), String.class);
        assertThat(response.getStatusCode().is2xxSuccessful()).as(action + " " + name + ": " + response.getBody()).isTrue();
    }

    /** The CVM as the simulator's Phala API shows it, or null when it has none of that name (404). */
    public JsonNode cvmOrNull(String name) throws Exception {
        HttpHeaders headers = new HttpHeaders();
        headers.set("X-API-Key", "test-key");
        // the newest shapes (compose_hash, in_progress): without the header the simulator answers the oldest
        headers.set("X-Phala-Version", "2026-05-22");
        ResponseEntity<String> response = http.exchange("/simulator/api/v1/cvms/" + name, HttpMethod.GET, new HttpEntity<>(headers), String.class);
        if (response.getStatusCode() == HttpStatus.NOT_FOUND) {
            return null;
        }
        assertThat(response.getStatusCode()).isEqualTo(HttpStatus.OK);
        return JSON.readTree(response.getBody());
    }

    public String composeHash(String name) throws Exception {
        return cvm(name).get("compose_hash").asText();
    }

    public long lastEventSeq() throws Exception {
        JsonNode events = JSON.readTree(http.getForObject("/simulator/_admin/events", String.class));
        return events.isEmpty() ? 0 : events.get(events.size() - 1).get("seq").asLong();
    }

    /** When the last of the CVMs whose name starts with {@code prefix} began running (its current boot); null: none. */
    public java.time.Instant lastBoot(String prefix) throws Exception {
        java.time.Instant last = null;
        for (JsonNode e : JSON.readTree(http.getForObject("/simulator/_admin/events", String.class))) {
            if (e.get("cvm").asText().startsWith(prefix) && "running".equals(e.get("to").asText())) {
                java.time.Instant at = java.time.Instant.parse(e.get("at").asText());
                last = last == null || at.isAfter(last) ? at : last;
            }
        }
        return last;
    }

    public List<JsonNode> eventsSince(long seq) throws Exception {
        List<JsonNode> out = new ArrayList<>();
        JSON.readTree(http.getForObject("/simulator/_admin/events", String.class)).forEach(e -> {
            if (e.get("seq").asLong() > seq) {
                out.add(e);
            }
        });
        return out;
    }

    /**
     * The events of CVMs whose name starts with {@code prefix} (one replica set's slots), each under the CVM's last
     * name: the service names a new CVM itself and we rename it to its slot afterwards (PATCH /cvms/{id}/name), so
     * its first events (created, running) carry the service's name.
     */
    public static List<JsonNode> of(List<JsonNode> events, String prefix) {
        Map<String, String> lastName = new LinkedHashMap<>();
        events.forEach(e -> lastName.put(identity(e), e.get("cvm").asText()));
        return events.stream()
                .map(e -> {
                    com.fasterxml.jackson.databind.node.ObjectNode named = e.deepCopy();
                    named.put("cvm", lastName.get(identity(e)));
                    return (JsonNode) named;
                })
                .filter(e -> e.get("cvm").asText().startsWith(prefix)).toList();
    }

    private static String identity(JsonNode event) {
        JsonNode uuid = event.get("vmUuid");
        return uuid == null || uuid.isNull() ? "name:" + event.get("cvm").asText() : uuid.asText();
    }

    /** The CVMs in the order in which each first left "running" for an update. */
    public static List<String> firstUpdateOrder(List<JsonNode> events) {
        List<String> order = new ArrayList<>();
        for (JsonNode e : events) {
            String cvm = e.get("cvm").asText();
            if ("updating".equals(e.get("to").asText()) && !order.contains(cvm)) {
                order.add(cvm);
            }
        }
        return order;
    }

    /** The CVMs that changed status at all. */
    public static List<String> touched(List<JsonNode> events) {
        return events.stream().map(e -> e.get("cvm").asText()).distinct().sorted().toList();
    }

    /** Replays the status changes and returns the most CVMs that were not running at any one moment. */
    public static int maxUnavailable(List<JsonNode> events) {
        Map<String, String> status = new LinkedHashMap<>();
        int max = 0;
        for (JsonNode e : events) {
            status.put(e.get("cvm").asText(), e.get("to").asText());
            int down = (int) status.values().stream().filter(s -> !"running".equals(s)).count();
            max = Math.max(max, down);
        }
        return max;
    }

    /**
     * Rounds of disruption: how many times the number of CVMs that are not running rose from zero. A rollout that
     * takes instances down one at a time has as many rounds as instances; waves of two need half as many.
     */
    public static int rounds(List<JsonNode> events) {
        Map<String, String> status = new LinkedHashMap<>();
        int rounds = 0;
        int down = 0;
        for (JsonNode e : events) {
            status.put(e.get("cvm").asText(), e.get("to").asText());
            int now = (int) status.values().stream().filter(s -> !"running".equals(s) && !"deleted".equals(s)).count();
            if (down == 0 && now > 0) {
                rounds++;
            }
            down = now;
        }
        return rounds;
    }

    /**
     * Replays the status changes from a moment when {@code initiallyRunning} CVMs of the set ran, and returns the
     * fewest that were running at any one moment (a CVM created during the replay counts once it runs).
     */
    public static int minRunning(List<JsonNode> events, int initiallyRunning) {
        Map<String, String> status = new LinkedHashMap<>();
        int running = initiallyRunning;
        int min = initiallyRunning;
        for (JsonNode e : events) {
            String cvm = e.get("cvm").asText();
            String from = e.get("from").isNull() ? null : e.get("from").asText();
            String to = e.get("to").asText();
            boolean wasRunning = status.containsKey(cvm) ? "running".equals(status.get(cvm)) : "running".equals(from);
            status.put(cvm, to);
            running += ("running".equals(to) ? 1 : 0) - (wasRunning ? 1 : 0);
            min = Math.min(min, running);
        }
        return min;
    }
}
