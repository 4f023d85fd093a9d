package com.statefulcvm.connectors.phala;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.statefulcvm.connectors.phala.model.PhalaJson;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The readable part of an error body. The API answers in several shapes (FastAPI {@code detail} as text or as a
 * validation list, a structured {@code error_code} object, a bare {@code message}, or plain text from a proxy);
 * this reduces each to one line and the error code, if any.
 */
record ApiErrorBody(String errorCode, String message, Map<String, JsonNode> fields) {

    ApiErrorBody(String errorCode, String message) {
        this(errorCode, message, Map.of());
    }

    private static final int MAX_TEXT = 300;
    private static final ObjectMapper MAPPER = PhalaJson.objectMapper();

    static ApiErrorBody parse(int status, byte[] body) {
        String text = body == null ? "" : new String(body, StandardCharsets.UTF_8).trim();
        if (text.isEmpty()) {
            return new ApiErrorBody(null, fallback(status));
        }
        JsonNode root = readJson(text);
        if (root == null || !root.isObject()) {
            return new ApiErrorBody(null, plainText(status, text));
        }
        ApiErrorBody parsed = fromObject(root);
        return parsed.message() == null || parsed.message().isBlank()
                ? new ApiErrorBody(parsed.errorCode(), parsed.errorCode() != null ? parsed.errorCode() : truncate(oneLine(text)),
                        parsed.fields())
                : parsed;
    }

    private static ApiErrorBody fromObject(JsonNode root) {
        JsonNode detail = root.get("detail");
        if (detail != null && !detail.isNull()) {
            if (detail.isTextual()) {
                return new ApiErrorBody(textOrNull(root.get("error_code")), detail.asText());
            }
            if (detail.isArray()) {
                return new ApiErrorBody(textOrNull(root.get("error_code")), validationErrors(detail));
            }
            if (detail.isObject()) {
                // Some endpoints nest the structured error inside FastAPI's "detail".
                return fromObject(detail);
            }
        }
        String errorCode = textOrNull(root.get("error_code"));
        String message = textOrNull(root.get("message"));
        String details = fieldDetails(root.get("details"));
        Map<String, JsonNode> fields = fieldValues(root.get("details"));
        if (details.isEmpty()) {
            return new ApiErrorBody(errorCode, message, fields);
        }
        return new ApiErrorBody(errorCode, message == null ? details : message + " (" + details + ")", fields);
    }

    /**
     * {@code details: [{"field": "compose_hash", "value": "..."}]} as a map, the way the SDK reads an HTTP 465
     * ({@code updateDockerCompose}: {@code new Map(detailsArray.map(d => [d.field, d.value]))}).
     */
    private static Map<String, JsonNode> fieldValues(JsonNode details) {
        Map<String, JsonNode> fields = new LinkedHashMap<>();
        if (details != null && details.isArray()) {
            for (JsonNode item : details) {
                if (item.isObject() && item.hasNonNull("field") && item.has("value")) {
                    fields.put(item.get("field").asText(), item.get("value"));
                }
            }
        }
        return Map.copyOf(fields);
    }

    /** {@code [{"loc":["body","name"],"msg":"..."}]} becomes {@code body.name: ...; ...}. */
    private static String validationErrors(JsonNode list) {
        List<String> parts = new ArrayList<>();
        for (JsonNode item : list) {
            if (!item.isObject()) {
                parts.add(item.asText());
                continue;
            }
            String loc = location(item.get("loc"));
            String msg = textOrNull(item.get("msg"));
            if (msg == null) {
                msg = textOrNull(item.get("message"));
            }
            parts.add(loc.isEmpty() ? String.valueOf(msg) : loc + ": " + msg);
        }
        return String.join("; ", parts);
    }

    private static String location(JsonNode loc) {
        if (loc == null || loc.isNull()) {
            return "";
        }
        if (!loc.isArray()) {
            return loc.asText();
        }
        List<String> parts = new ArrayList<>();
        loc.forEach(part -> parts.add(part.asText()));
        return String.join(".", parts);
    }

    private static String fieldDetails(JsonNode details) {
        if (details == null || !details.isArray()) {
            return "";
        }
        List<String> parts = new ArrayList<>();
        for (JsonNode item : details) {
            if (!item.isObject()) {
                parts.add(item.asText());
                continue;
            }
            String field = textOrNull(item.get("field"));
            String msg = textOrNull(item.get("message"));
            if (msg == null && item.has("value")) {
                // a value (a hash, an id, an object) is data for the caller, not words for a log line
                continue;
            }
            if (field == null) {
                parts.add(String.valueOf(msg));
            } else {
                parts.add(msg == null ? field : field + ": " + msg);
            }
        }
        return String.join("; ", parts);
    }

    private static String plainText(int status, String text) {
        // An HTML error page from a proxy says nothing a person wants in a log line.
        if (text.startsWith("<")) {
            return fallback(status);
        }
        return truncate(oneLine(text));
    }

    private static String fallback(int status) {
        return "HTTP " + status;
    }

    private static JsonNode readJson(String text) {
        if (!text.startsWith("{") && !text.startsWith("[")) {
            return null;
        }
        try {
            return MAPPER.readTree(text);
        } catch (IOException e) {
            return null;
        }
    }

    private static String textOrNull(JsonNode node) {
        if (node == null || node.isNull()) {
            return null;
        }
        String text = node.isValueNode() ? node.asText() : node.toString();
        return text.isBlank() ? null : text;
    }

    private static String oneLine(String text) {
        return text.replaceAll("\\s+", " ");
    }

    private static String truncate(String text) {
        return text.length() <= MAX_TEXT ? text : text.substring(0, MAX_TEXT) + "...";
    }
}
