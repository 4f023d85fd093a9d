package com.statefulcvm.workloads;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A client of the etcd cluster behind the simulated CVMs: puts one key every 100 ms through the CVMs' gateway routes
 * ({@code /simulator/gateway/{instanceId}-2379/v3/kv/put}, etcd's v3 JSON gateway), to one member and to the next
 * one whenever a put fails (a restarting CVM answers 502), and records each acknowledged put.
 */
public final class WorkloadEtcdWriter implements AutoCloseable {

    static final String PREFIX = "rollout-writer/";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final List<URI> members;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "etcd-writer");
        thread.setDaemon(true);
        return thread;
    });
    private final AtomicLong nextId = new AtomicLong(1);
    private final WorkloadWriteLog log = new WorkloadWriteLog();
    private int member;

    /** {@code gatewayRoutes}: each CVM's {@code http://127.0.0.1:<port>/simulator/gateway/<instanceId>-2379}. */
    public WorkloadEtcdWriter(List<URI> gatewayRoutes) {
        this.members = List.copyOf(gatewayRoutes);
    }

    public WorkloadWriteLog log() {
        return log;
    }

    public static String key(long id) {
        return PREFIX + String.format("%08d", id);
    }

    public void start() {
        executor.scheduleAtFixedRate(this::putOne, 0, 100, TimeUnit.MILLISECONDS);
    }

    private void putOne() {
        long id = nextId.getAndIncrement();
        URI route = members.get(member);
        try {
            HttpResponse<String> response = post(route, "/v3/kv/put", Map.of("key", b64(key(id)), "value", b64(Long.toString(id))));
            if (response.statusCode() == 200 && JSON.readTree(response.body()).has("header")) {
                log.acknowledged(id, Instant.now());
                return;
            }
            log.failed("put " + id + " via " + route + ": " + response.statusCode() + " " + response.body());
        } catch (IOException | RuntimeException e) {
            log.failed("put " + id + " via " + route + ": " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        member = (member + 1) % members.size();
    }

    HttpResponse<String> post(URI route, String path, Map<String, Object> body) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create(route + path)).timeout(Duration.ofSeconds(2))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body))).build();
        return http.send(request, HttpResponse.BodyHandlers.ofString());
    }

    /** Every key under {@link #PREFIX} with its value, read through the first route that answers. */
    public Map<String, String> readAll() throws IOException, InterruptedException {
        for (URI route : members) {
            HttpResponse<String> response = post(route, "/v3/kv/range", Map.of("key", b64(PREFIX),
                    "range_end", b64(PREFIX.substring(0, PREFIX.length() - 1) + (char) (PREFIX.charAt(PREFIX.length() - 1) + 1))));
            if (response.statusCode() != 200) {
                continue;
            }
            Map<String, String> out = new HashMap<>();
            JsonNode kvs = JSON.readTree(response.body()).path("kvs");
            kvs.forEach(kv -> out.put(unb64(kv.get("key").asText()), unb64(kv.path("value").asText())));
            return out;
        }
        throw new IllegalStateException("no member answered a range read");
    }

    static String b64(String text) {
        return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
    }

    static String unb64(String text) {
        return new String(Base64.getDecoder().decode(text), StandardCharsets.UTF_8);
    }

    @Override
    public void close() throws InterruptedException {
        executor.shutdown();
        executor.awaitTermination(30, TimeUnit.SECONDS);
    }
}
