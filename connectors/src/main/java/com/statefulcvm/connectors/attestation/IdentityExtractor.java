package com.statefulcvm.connectors.attestation;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads dstack's identity events from a replayed RTMR3 log. Each must occur at most once: a workload can emit its own
 * runtime events after boot, and a second "compose-hash" must not be able to shadow the first.
 */
final class IdentityExtractor {

    static final List<String> REQUIRED = List.of("app-id", "compose-hash", "instance-id", "key-provider");
    static final List<String> OPTIONAL = List.of("os-image-hash", "storage-fs");

    /** Event-log fields of the identity; the MR fields are filled from the quote by the caller. */
    record Result(Check check, Identity identity) {
    }

    private IdentityExtractor() {
    }

    static Result extract(List<EventLogReplay.RuntimeEvent> events) {
        Map<String, byte[]> found = new HashMap<>();
        List<String> problems = new ArrayList<>();
        for (EventLogReplay.RuntimeEvent event : events) {
            if (REQUIRED.contains(event.name()) || OPTIONAL.contains(event.name())) {
                if (found.containsKey(event.name())) {
                    problems.add("event '" + event.name() + "' occurs more than once");
                } else {
                    found.put(event.name(), event.payload());
                }
            }
        }
        for (String name : REQUIRED) {
            if (!found.containsKey(name)) {
                problems.add("event '" + name + "' is missing");
            }
        }
        String keyProviderJson = text(found.get("key-provider"));
        String keyProviderName = null;
        String keyProviderId = null;
        if (keyProviderJson != null) {
            try {
                JsonNode kp = AttestationJson.MAPPER.readTree(keyProviderJson);
                keyProviderName = kp.path("name").isTextual() ? kp.get("name").asText() : null;
                keyProviderId = kp.path("id").isTextual() ? kp.get("id").asText() : null;
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                problems.add("key-provider payload is not JSON");
            }
            if (keyProviderName == null) {
                problems.add("key-provider payload has no name");
            }
        }
        Identity identity = new Identity(hex(found.get("app-id")), hex(found.get("compose-hash")),
                hex(found.get("instance-id")), hex(found.get("os-image-hash")), keyProviderName, keyProviderId,
                keyProviderJson, text(found.get("storage-fs")), null, null, null, null, null);
        if (!problems.isEmpty()) {
            return new Result(Check.fail(CheckNames.EVENT_LOG_IDENTITY, String.join("; ", problems)), identity);
        }
        return new Result(Check.pass(CheckNames.EVENT_LOG_IDENTITY, "app-id " + identity.appId() + ", compose-hash "
                + identity.composeHash() + ", key provider " + keyProviderName), identity);
    }

    private static String hex(byte[] payload) {
        return payload == null ? null : Bytes.hex(payload);
    }

    private static String text(byte[] payload) {
        return payload == null ? null : new String(payload, StandardCharsets.UTF_8);
    }
}
