package com.statefulcvm.connectors.attestation;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The SHA-384 digest dstack extends into RTMR3 for one of its runtime events (event type 0x08000001), in the two
 * formats Dstack-TEE/dstack defines:
 * <ul>
 *   <li>version 1 ({@code cc-eventlog/src/runtime_events.rs}, {@code RuntimeEvent::digest}):
 *       {@code SHA-384(le32(0x08000001) || ":" || event || ":" || payload)};</li>
 *   <li>version 2 (pull request #646 "Add event log v2 format with JSON canonical digest"; {@code dstack-types}
 *       {@code EventLogVersion::V2}; test {@code fill_hash_input_v2_is_canonical_json} in
 *       {@code cc-eventlog/src/tdx.rs}): {@code SHA-384(JCS({"name": event, "payload": hex(payload),
 *       "type": 134217729}))}, RFC 8785 canonical JSON, so the keys sort as name, payload, type. The version travels
 *       beside the event ({@code "version": 2} in the event log entry), never inside the hashed bytes. Drafts in that
 *       history hashed {@code {"event","event_type","payload","version":2}} and {@code {"name","type","content"}};
 *       the merged format is the one above.</li>
 * </ul>
 */
final class RuntimeEventDigest {

    static final int DSTACK_RUNTIME_EVENT_TYPE = 0x08000001;

    private RuntimeEventDigest() {
    }

    static byte[] v1(String event, byte[] payload) {
        MessageDigest sha = sha384();
        sha.update(Bytes.le32(DSTACK_RUNTIME_EVENT_TYPE));
        sha.update((byte) ':');
        sha.update(event.getBytes(StandardCharsets.UTF_8));
        sha.update((byte) ':');
        sha.update(payload);
        return sha.digest();
    }

    static byte[] v2(String event, byte[] payload) {
        return sha384().digest(canonicalJsonV2(event, payload).getBytes(StandardCharsets.UTF_8));
    }

    static String canonicalJsonV2(String event, byte[] payload) {
        StringBuilder out = new StringBuilder(64 + event.length() + payload.length * 2);
        out.append("{\"name\":");
        jcsString(event, out);
        out.append(",\"payload\":\"").append(Bytes.hex(payload)).append("\",\"type\":")
                .append(Integer.toUnsignedString(DSTACK_RUNTIME_EVENT_TYPE)).append('}');
        return out.toString();
    }

    /** RFC 8785 string serialisation (ECMAScript JSON.stringify): short escapes, other controls as lower \\u00xx. */
    static void jcsString(String value, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }

    static MessageDigest sha384() {
        try {
            return MessageDigest.getInstance("SHA-384");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK lacks SHA-384", e);
        }
    }
}
