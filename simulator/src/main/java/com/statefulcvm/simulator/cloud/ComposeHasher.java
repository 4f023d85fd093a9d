package com.statefulcvm.simulator.cloud;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;

import com.statefulcvm.fleet.admission.AppCompose;

/**
 * The compose hash: SHA-256 (hex) of the app compose in dstack's deterministic JSON (keys sorted at every level, no
 * white space, strings escaped as dstack's SDKs escape them: {@link AppCompose}, the same code the orchestrator computes
 * the hash it expects with), so the same compose gives the same hash whatever the order its fields came in.
 */
public final class ComposeHasher {

    private ComposeHasher() {
    }

    public static String canonicalJson(Map<String, ?> compose) {
        return AppCompose.deterministicJson(compose);
    }

    public static String hash(Map<String, ?> compose) {
        return AppCompose.hash(compose);
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
