package com.statefulcvm.simulator.cloud;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;

/**
 * The compose hash: SHA-256 (hex) of the canonical JSON of the app compose (keys sorted at every level, no
 * whitespace), so the same compose gives the same hash whatever the order its fields came in.
 */
public final class ComposeHasher {

    private static final ObjectMapper CANONICAL = JsonMapper.builder()
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
            .enable(MapperFeature.SORT_PROPERTIES_ALPHABETICALLY)
            .build();

    private ComposeHasher() {
    }

    public static String canonicalJson(Map<String, ?> compose) {
        try {
            return CANONICAL.writeValueAsString(compose);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("compose cannot be written as JSON", e);
        }
    }

    public static String hash(Map<String, ?> compose) {
        return sha256Hex(canonicalJson(compose).getBytes(StandardCharsets.UTF_8));
    }

    static String sha256Hex(byte[] data) {
        return HexFormat.of().formatHex(digest("SHA-256", data));
    }

    static byte[] digest(String algorithm, byte[]... parts) {
        try {
            MessageDigest digest = MessageDigest.getInstance(algorithm);
            for (byte[] part : parts) {
                digest.update(part);
            }
            return digest.digest();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(algorithm + " is not available", e);
        }
    }
}
