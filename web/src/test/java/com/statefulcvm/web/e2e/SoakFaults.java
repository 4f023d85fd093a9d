package com.statefulcvm.web.e2e;

import com.statefulcvm.web.RolloutDriver;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.springframework.boot.test.web.client.TestRestTemplate;
import org.springframework.http.HttpEntity;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The soak's hand on the simulator, through its admin API only (the test never calls the Phala API while faults are
 * pending, so every fault is met by the orchestrator): faults injected and how many of their uses were met, crashes,
 * workload health, and the event journal.
 */
final class SoakFaults {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String ADMIN = "/simulator/_admin";

    /** One injected fault: its kind (for the summary), how many calls it was given, and its simulator id. */
    record Injected(long id, String kind, int times, boolean targeted) {
    }

    private final TestRestTemplate http;
    private final List<Injected> injected = new CopyOnWriteArrayList<>();
    private final AtomicInteger crashesRequested = new AtomicInteger();

    SoakFaults(TestRestTemplate http) {
        this.http = http;
    }

    /** Adds a fault ({@code method, pathPattern, status?, times, retryAfterSeconds?, delayMs?}). */
    void inject(String kind, boolean targeted, Map<String, Object> fault) {
        ResponseEntity<String> answer = http.postForEntity(ADMIN + "/faults", RolloutDriver.json(fault), String.class);
        assertThat(answer.getStatusCode()).as("fault %s: %s", fault, answer.getBody()).isEqualTo(HttpStatus.OK);
        JsonNode added = read(answer.getBody());
        injected.add(new Injected(added.get("id").asLong(), kind, added.get("times").asInt(), targeted));
    }

    static Map<String, Object> fault(String method, String pathPattern, Integer status, int times) {
        Map<String, Object> fault = new HashMap<>();
        fault.put("method", method);
        fault.put("pathPattern", pathPattern);
        if (status != null) {
            fault.put("status", status);
        }
        fault.put("times", times);
        return fault;
    }

    static Map<String, Object> with(Map<String, Object> fault, String key, Object value) {
        Map<String, Object> copy = new HashMap<>(fault);
        copy.put(key, value);
        return copy;
    }

    /** Per kind: {injected uses, met uses}; a fault no longer pending was met every time. Clears what is left. */
    Map<String, int[]> tallyAndClear() {
        Map<Long, Integer> remaining = new HashMap<>();
        read(http.getForObject(ADMIN + "/faults", String.class))
                .forEach(f -> remaining.put(f.get("id").asLong(), f.get("remaining").asInt()));
        http.exchange(ADMIN + "/faults", HttpMethod.DELETE, null, String.class);
        Map<String, int[]> tally = new TreeMap<>();
        for (Injected fault : injected) {
            int[] counts = tally.computeIfAbsent(fault.kind(), k -> new int[2]);
            counts[0] += fault.times();
            counts[1] += fault.times() - remaining.getOrDefault(fault.id(), 0);
        }
        return tally;
    }

    /** Whether an untargeted fault is still waiting for the calls it is meant for. */
    boolean untargetedPending() {
        java.util.Set<Long> pending = new java.util.HashSet<>();
        read(http.getForObject(ADMIN + "/faults", String.class)).forEach(f -> pending.add(f.get("id").asLong()));
        return injected.stream().anyMatch(f -> !f.targeted() && pending.contains(f.id()));
    }

    int faultsInjected() {
        return injected.size();
    }

    long targetedInjected() {
        return injected.stream().filter(Injected::targeted).count();
    }

    /** The CVM stops at once, cancelling its update (admin crash). */
    void crash(String cvm) {
        ResponseEntity<String> answer = http.postForEntity(ADMIN + "/cvms/" + cvm + "/crash", null, String.class);
        assertThat(answer.getStatusCode()).as("crash %s: %s", cvm, answer.getBody()).isEqualTo(HttpStatus.OK);
        crashesRequested.incrementAndGet();
    }

    int crashesRequested() {
        return crashesRequested.get();
    }

    void healthy(String cvm, boolean healthy) {
        ResponseEntity<String> answer = http.postForEntity(ADMIN + "/cvms/" + cvm + "/health",
                RolloutDriver.json(Map.of("healthy", healthy)), String.class);
        assertThat(answer.getStatusCode()).as("health of %s: %s", cvm, answer.getBody()).isEqualTo(HttpStatus.OK);
    }

    /** The journal's events after {@code seq} (every status change of every CVM, in order). */
    List<JsonNode> eventsSince(long seq) {
        List<JsonNode> events = new ArrayList<>();
        read(http.getForObject(ADMIN + "/events?sinceSeq=" + seq, String.class)).forEach(events::add);
        return events;
    }

    long lastSeq() {
        List<JsonNode> events = eventsSince(0);
        return events.isEmpty() ? 0 : events.get(events.size() - 1).get("seq").asLong();
    }

    // --- the Phala API, only while no fault is pending ------------------------------------------------------------

    /** Every CVM of the workspace by name. */
    Map<String, JsonNode> cvmsByName() {
        HttpHeaders headers = new HttpHeaders();
        headers.set("X-API-Key", "soak-test");
        headers.set("X-Phala-Version", "2026-05-22");
        ResponseEntity<String> page = http.exchange("/simulator/api/v1/cvms/paginated?page=1&page_size=100", HttpMethod.GET,
                new HttpEntity<>(headers), String.class);
        assertThat(page.getStatusCode()).as(page.getBody()).isEqualTo(HttpStatus.OK);
        Map<String, JsonNode> byName = new LinkedHashMap<>();
        read(page.getBody()).get("items").forEach(cvm -> byName.put(cvm.get("name").asText(), cvm));
        return byName;
    }

    /** One CVM's detail (with its compose file), by name. */
    JsonNode cvm(String name) {
        HttpHeaders headers = new HttpHeaders();
        headers.set("X-API-Key", "soak-test");
        headers.set("X-Phala-Version", "2026-05-22");
        ResponseEntity<String> cvm = http.exchange("/simulator/api/v1/cvms/" + name, HttpMethod.GET, new HttpEntity<>(headers),
                String.class);
        assertThat(cvm.getStatusCode()).as(cvm.getBody()).isEqualTo(HttpStatus.OK);
        return read(cvm.getBody());
    }

    private static JsonNode read(String body) {
        try {
            return JSON.readTree(body);
        } catch (Exception e) {
            throw new IllegalStateException("not JSON: " + body, e);
        }
    }
}
