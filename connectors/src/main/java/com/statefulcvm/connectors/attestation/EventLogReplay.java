package com.statefulcvm.connectors.attestation;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Replays the RTMR3 part of a dstack event log ({@code [{imr, event_type, digest, event, event_payload, version?}]}):
 * {@code mr = 48 zero bytes; for each imr 3 event: mr = SHA-384(mr || digest)}. A dstack runtime event's digest is
 * recomputed from its name and payload, never taken from the log, so the payloads are what the quote vouches for.
 */
final class EventLogReplay {

    /** A dstack runtime event whose digest was recomputed from these very bytes. */
    record RuntimeEvent(String name, byte[] payload) {
    }

    /** {@code events} are the imr 3 runtime events in order, whether or not the replay matched. */
    record Result(Check check, boolean matched, List<RuntimeEvent> events) {
    }

    private EventLogReplay() {
    }

    static Result replay(String eventLogJson, byte[] quoteRtmr3) {
        JsonNode log;
        try {
            log = AttestationJson.MAPPER.readTree(eventLogJson);
        } catch (JsonProcessingException e) {
            return fail("the event log is not valid JSON: " + e.getOriginalMessage());
        }
        if (log == null || !log.isArray()) {
            return fail("the event log is not a JSON array");
        }
        byte[] mr = new byte[48];
        MessageDigest sha = RuntimeEventDigest.sha384();
        List<RuntimeEvent> events = new ArrayList<>();
        int count = 0;
        for (int i = 0; i < log.size(); i++) {
            JsonNode entry = log.get(i);
            if (!entry.isObject() || !entry.path("imr").canConvertToInt()) {
                return fail("event " + i + " has no numeric imr");
            }
            if (entry.get("imr").asInt() != 3) {
                continue;
            }
            byte[] digest;
            try {
                digest = digest(entry, events);
            } catch (IllegalArgumentException e) {
                return fail("event " + i + " (" + entry.path("event").asText("?") + "): " + e.getMessage());
            }
            sha.update(mr);
            sha.update(digest);
            mr = sha.digest();
            count++;
        }
        if (count == 0) {
            return fail("the event log has no imr 3 events");
        }
        if (!MessageDigest.isEqual(mr, quoteRtmr3)) {
            return new Result(Check.fail(CheckNames.EVENT_LOG_RTMR3, "replaying " + count + " imr 3 events gives "
                    + Bytes.hex(mr) + ", the quote's RTMR3 is " + Bytes.hex(quoteRtmr3)), false, events);
        }
        return new Result(Check.pass(CheckNames.EVENT_LOG_RTMR3, "replaying " + count
                + " imr 3 events gives the quote's RTMR3"), true, events);
    }

    private static byte[] digest(JsonNode entry, List<RuntimeEvent> events) {
        long type = entry.path("event_type").asLong(-1);
        byte[] logged = hex(entry.path("digest").asText(""), "digest");
        if (type != RuntimeEventDigest.DSTACK_RUNTIME_EVENT_TYPE) {
            // Not a dstack runtime event: only its digest is defined, so it binds nothing we read.
            if (logged.length != 48) {
                throw new IllegalArgumentException("event type " + type + " needs a 48-byte digest");
            }
            return logged;
        }
        String name = entry.path("event").asText("");
        byte[] payload = hex(entry.path("event_payload").asText(""), "event_payload");
        int version = entry.path("version").asInt(1);
        byte[] computed = switch (version) {
            case 1 -> RuntimeEventDigest.v1(name, payload);
            case 2 -> RuntimeEventDigest.v2(name, payload);
            default -> throw new IllegalArgumentException("unknown event log version " + version);
        };
        if (logged.length != 0 && !Arrays.equals(logged, computed)) {
            throw new IllegalArgumentException("the logged digest is not the digest of its payload");
        }
        events.add(new RuntimeEvent(name, payload));
        return computed;
    }

    private static byte[] hex(String text, String field) {
        try {
            return Bytes.unhex(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(field + " is not hex");
        }
    }

    private static Result fail(String reason) {
        return new Result(Check.fail(CheckNames.EVENT_LOG_RTMR3, reason), false, List.of());
    }
}
