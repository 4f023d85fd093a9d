package com.statefulcvm.connectors.phala.model;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;

/**
 * Reads a field that the API documents as JSON text but that some versions send as an embedded object: either way
 * the caller gets the JSON text.
 */
public final class JsonTextDeserializer extends JsonDeserializer<String> {

    @Override
    public String deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
        if (p.currentToken() == JsonToken.VALUE_STRING) {
            return p.getText();
        }
        JsonNode node = p.readValueAsTree();
        return node == null || node.isNull() ? null : node.toString();
    }
}
