package com.statefulcvm.connectors.attestation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;

/** One configured mapper for the attestation JSON shapes, and field readers that fail naming the field. */
final class AttestationJson {

    static final ObjectMapper MAPPER = JsonMapper.builder().build();

    private AttestationJson() {
    }

    static JsonNode parseObject(String json, String field) {
        if (json == null) {
            throw new EvidenceFormatException(field, "missing");
        }
        try {
            JsonNode node = MAPPER.readTree(json);
            if (node == null || !node.isObject()) {
                throw new EvidenceFormatException(field, "not a JSON object");
            }
            return node;
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new EvidenceFormatException(field, "not valid JSON (" + e.getOriginalMessage() + ")");
        }
    }

    static String requiredText(JsonNode node, String name, String prefix) {
        JsonNode value = node.get(name);
        if (value == null || value.isNull()) {
            throw new EvidenceFormatException(prefix + name, "missing");
        }
        if (!value.isTextual()) {
            throw new EvidenceFormatException(prefix + name, "must be a string");
        }
        return value.asText();
    }

    /** A field that dstack sends either as JSON text or as the JSON value itself; either way, text comes back. */
    static String jsonText(JsonNode node, String name, String prefix, boolean required) {
        JsonNode value = node.get(name);
        if (value == null || value.isNull()) {
            if (required) {
                throw new EvidenceFormatException(prefix + name, "missing");
            }
            return null;
        }
        return value.isTextual() ? value.asText() : value.toString();
    }

    static String hexField(JsonNode node, String name, String prefix) {
        String text = requiredText(node, name, prefix);
        try {
            Bytes.unhex(text);
        } catch (IllegalArgumentException e) {
            throw new EvidenceFormatException(prefix + name, "not hex (" + e.getMessage() + ")");
        }
        return text;
    }
}
