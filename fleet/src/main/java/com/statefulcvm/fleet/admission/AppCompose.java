package com.statefulcvm.fleet.admission;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Collection;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * dstack's app-compose form and its hash, the {@code compose-hash} a CVM measures into RTMR3 (dstack-util hashes the
 * app-compose.json file it boots with). The JSON is written the way dstack's own SDKs write it ({@code getComposeHash}
 * of {@code @phala/dstack-sdk}, {@code get_compose_hash} of the Python SDK): keys sorted at every level, no white
 * space, UTF-8, strings escaped as {@code JSON.stringify} and Python's {@code json.dumps(ensure_ascii=False)} escape
 * them (quote, backslash, b, f, n, r and t by their short escapes, other control characters as lower-case six-character unicode escapes,
 * everything else as it is). Phala Cloud's SDK ({@code @phala/cloud}, {@code getCvmComposeFile().getHash()}) hashes a
 * second form of the same document: normalized ({@link #normalized}), keys sorted, four-space indentation with every
 * {@code ": "} written {@code ":"}; which of the two an app's app-compose.json was written in, the SDKs do not say, so
 * {@link #hashes} gives both. Pure: the simulator hashes with it too, so both sides agree by construction, and the
 * tests hold both against hashes the official SDK computed.
 */
public final class AppCompose {

    private AppCompose() {
    }

    /** dstack's deterministic JSON of an app compose (or of any JSON value made of maps, lists, strings, numbers, booleans). */
    public static String deterministicJson(Object value) {
        StringBuilder out = new StringBuilder();
        write(out, value, -1, 0);
        return out.toString();
    }

    /** SHA-256 (hex) of {@link #deterministicJson}: dstack-sdk's {@code getComposeHash(compose)}. */
    public static String hash(Map<String, ?> compose) {
        return sha256Hex(deterministicJson(compose));
    }

    /**
     * The hashes an app compose may be measured as: dstack-sdk's deterministic form, and @phala/cloud's indented form of
     * the normalized compose.
     */
    public static Set<String> hashes(Map<String, ?> compose) {
        Set<String> hashes = new LinkedHashSet<>();
        hashes.add(hash(compose));
        hashes.add(sha256Hex(phalaCloudJson(compose)));
        return hashes;
    }

    /** @phala/cloud's {@code dumpAppCompose(preprocessAppCompose(compose))}. */
    public static String phalaCloudJson(Map<String, ?> compose) {
        StringBuilder out = new StringBuilder();
        write(out, normalized(compose), 4, 0);
        return out.toString().replace("\": ", "\":");
    }

    /**
     * dstack's {@code preprocess_app_compose}: a {@code bash} runner has no docker compose file, a docker-compose runner
     * no bash script, and an empty pre-launch script is no pre-launch script.
     */
    public static Map<String, Object> normalized(Map<String, ?> compose) {
        Map<String, Object> copy = new LinkedHashMap<>(compose);
        Object runner = copy.get("runner");
        if ("bash".equals(runner)) {
            copy.remove("docker_compose_file");
        } else if ("docker-compose".equals(runner) || "nerdctl-compose".equals(runner)) {
            copy.remove("bash_script");
        }
        Object script = copy.get("pre_launch_script");
        if (copy.containsKey("pre_launch_script") && (script == null || script instanceof String s && s.isEmpty()
                || Boolean.FALSE.equals(script))) {
            copy.remove("pre_launch_script");
        }
        return copy;
    }

    static String sha256Hex(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is not available", e);
        }
    }

    /** @param indent -1: compact; otherwise JSON.stringify's {@code space} argument */
    private static void write(StringBuilder out, Object value, int indent, int depth) {
        if (value == null) {
            out.append("null");
        } else if (value instanceof String text) {
            string(out, text);
        } else if (value instanceof Boolean b) {
            out.append(b);
        } else if (value instanceof Number n) {
            number(out, n);
        } else if (value instanceof Map<?, ?> map) {
            Map<String, Object> sorted = new TreeMap<>();
            map.forEach((k, v) -> sorted.put(String.valueOf(k), v));
            if (sorted.isEmpty()) {
                out.append("{}");
                return;
            }
            out.append('{');
            boolean first = true;
            for (Map.Entry<String, Object> e : sorted.entrySet()) {
                out.append(first ? "" : ",");
                first = false;
                newline(out, indent, depth + 1);
                string(out, e.getKey());
                out.append(indent < 0 ? ":" : ": ");
                write(out, e.getValue(), indent, depth + 1);
            }
            newline(out, indent, depth);
            out.append('}');
        } else if (value instanceof Collection<?> list) {
            if (list.isEmpty()) {
                out.append("[]");
                return;
            }
            out.append('[');
            boolean first = true;
            for (Object item : list) {
                out.append(first ? "" : ",");
                first = false;
                newline(out, indent, depth + 1);
                write(out, item, indent, depth + 1);
            }
            newline(out, indent, depth);
            out.append(']');
        } else {
            throw new IllegalArgumentException("not a JSON value: " + value.getClass().getName());
        }
    }

    private static void newline(StringBuilder out, int indent, int depth) {
        if (indent >= 0) {
            out.append('\n').append(" ".repeat(indent * depth));
        }
    }

    /** Numbers as JavaScript prints them, for the values an app compose holds: integers, and finite decimals. */
    private static void number(StringBuilder out, Number n) {
        double d = n.doubleValue();
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            out.append("null");
        } else if (d == Math.rint(d) && Math.abs(d) < 1e21) {
            out.append(n instanceof Double || n instanceof Float ? Long.toString((long) d) : n.toString());
        } else {
            out.append(Double.toString(d));
        }
    }

    private static void string(StringBuilder out, String text) {
        out.append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
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
}
