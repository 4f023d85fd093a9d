package com.statefulcvm.simulator.cloud;

import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.UUID;

/** Identifiers in the shapes the platform uses. */
final class Ids {

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final String BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    private static final String LOWER36 = "0123456789abcdefghijklmnopqrstuvwxyz";

    private Ids() {
    }

    /** {@code cvm_} + 10 base62 characters. */
    static String cvmId() {
        return "cvm_" + random(BASE62, 10);
    }

    static String revisionId() {
        return "rev_" + random(BASE62, 12);
    }

    /** A random lower-case suffix, usable in a CVM name. */
    static String nameSuffix() {
        return random(LOWER36, 5);
    }

    /** {@code bytes} random bytes as lower-case hex (an app_id or instance_id is 20 bytes: 40 hex). */
    static String hex(int bytes) {
        byte[] value = new byte[bytes];
        RANDOM.nextBytes(value);
        return HexFormat.of().formatHex(value);
    }

    static String uuid() {
        return UUID.randomUUID().toString();
    }

    private static String random(String alphabet, int length) {
        StringBuilder out = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            out.append(alphabet.charAt(RANDOM.nextInt(alphabet.length())));
        }
        return out.toString();
    }
}
