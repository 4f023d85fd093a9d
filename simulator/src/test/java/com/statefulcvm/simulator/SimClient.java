package com.statefulcvm.simulator;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** Real HTTP calls to the simulator (java.net.http), answering status, headers and body. */
public final class SimClient {

    public static final String API = "/simulator/api/v1";
    public static final String ADMIN = "/simulator/_admin";

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final String base;
    private final String apiKey;
    /** Sent as {@code X-Phala-Version} when not null. */
    private final String apiVersion;

    /** The newest version (hashed ids, CVMInfo everywhere), which most tests were written against. */
    public static final String NEWEST = "2026-05-22";

    public SimClient(int port, String apiKey) {
        this("http://127.0.0.1:" + port, apiKey, NEWEST);
    }

    private SimClient(String base, String apiKey, String apiVersion) {
        this.base = base;
        this.apiKey = apiKey;
        this.apiVersion = apiVersion;
    }

    /** The same client, sending {@code X-Phala-Version: apiVersion} with every call (null: no such header). */
    public SimClient version(String apiVersion) {
        return new SimClient(base, apiKey, apiVersion);
    }

    public record Response(int status, HttpHeaders headers, String body) {

        public JsonNode json() {
            try {
                return JSON.readTree(body);
            } catch (JsonProcessingException e) {
                throw new IllegalStateException("not JSON (" + status + "): " + body, e);
            }
        }

        @Override
        public String toString() {
            return status + " " + body;
        }
    }

    public Response get(String path) {
        return send("GET", path, null, null, apiKey);
    }

    public Response post(String path, Object body) {
        return send("POST", path, "application/json", toJson(body), apiKey);
    }

    public Response put(String path, Object body) {
        return send("PUT", path, "application/json", toJson(body), apiKey);
    }

    public Response patch(String path, Object body) {
        return send("PATCH", path, "application/json", toJson(body), apiKey);
    }

    public Response patchRaw(String path, String contentType, String body) {
        return send("PATCH", path, contentType, body, apiKey);
    }

    public Response delete(String path) {
        return send("DELETE", path, null, null, apiKey);
    }

    /** Any method, any body, the given key (null: no {@code X-API-Key} header). */
    public Response send(String method, String path, String contentType, String body, String key) {
        return send(method, path, contentType, body, key, Map.of());
    }

    /** As above, with further headers. */
    public Response send(String method, String path, String contentType, String body, String key,
            Map<String, String> headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path))
                .timeout(Duration.ofSeconds(10))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        if (contentType != null) {
            request.header("Content-Type", contentType);
        }
        if (key != null) {
            request.header("X-API-Key", key);
        }
        if (apiVersion != null) {
            request.header("X-Phala-Version", apiVersion);
        }
        headers.forEach(request::header);
        try {
            HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            return new Response(response.statusCode(), response.headers(), response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static String toJson(Object body) {
        if (body == null) {
            return null;
        }
        if (body instanceof String text) {
            return text;
        }
        try {
            return JSON.writeValueAsString(body);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(e);
        }
    }
}
