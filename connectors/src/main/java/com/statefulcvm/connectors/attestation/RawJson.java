package com.statefulcvm.connectors.attestation;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;

/**
 * Cuts a member's value out of a JSON text without re-serialising it: Intel signs the exact bytes of {@code tcbInfo}
 * and {@code enclaveIdentity}, and any reformatting would break the signature.
 */
final class RawJson {

    private RawJson() {
    }

    static String member(String json, String name) {
        try (JsonParser parser = AttestationJson.MAPPER.getFactory().createParser(json)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                throw new IllegalArgumentException("not a JSON object");
            }
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String field = parser.currentName();
                JsonToken value = parser.nextToken();
                if (name.equals(field)) {
                    if (value != JsonToken.START_OBJECT) {
                        throw new IllegalArgumentException("'" + name + "' is not an object");
                    }
                    int start = (int) parser.currentTokenLocation().getCharOffset();
                    parser.skipChildren();
                    int end = (int) parser.currentLocation().getCharOffset();
                    return json.substring(start, end);
                }
                parser.skipChildren();
            }
            throw new IllegalArgumentException("no member '" + name + "'");
        } catch (IOException e) {
            throw new IllegalArgumentException("not valid JSON: " + e.getMessage());
        }
    }
}
