package com.statefulcvm.fleet.drift;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;

/**
 * An encrypted env as a CVM was given it: only a CVM of the app can open the ciphertext, so values are compared by
 * the ciphertext's digest (each sealing draws a fresh key: the same ciphertext is the same sending, a new one is a new
 * sending, whoever made it). {@code keys} are the variable names, never values; {@code source} says who sent it or
 * where it was seen.
 */
public record EnvValue(String digest, String encryptedEnv, List<String> keys, String source, Instant at) {

    /** The digest of a CVM that was given no env. */
    public static final String NONE = "none";

    public EnvValue {
        keys = keys == null ? List.of() : List.copyOf(keys);
    }

    public static EnvValue of(String encryptedEnv, List<String> keys, String source, Instant at) {
        return new EnvValue(digestOf(encryptedEnv), blank(encryptedEnv) ? null : encryptedEnv, keys, source, at);
    }

    /** SHA-256 of the hex ciphertext, lower case without {@code 0x}; {@value #NONE} for no env. */
    public static String digestOf(String encryptedEnv) {
        if (blank(encryptedEnv)) {
            return NONE;
        }
        String hex = encryptedEnv.strip().toLowerCase(Locale.ROOT);
        hex = hex.startsWith("0x") ? hex.substring(2) : hex;
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(hex.getBytes(StandardCharsets.US_ASCII)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    public boolean sameAs(EnvValue other) {
        return other != null && digest.equals(other.digest);
    }

    /** "12ab34cd… (DB_PASSWORD, API_TOKEN)", for reports: never a value. */
    public String describe() {
        String names = keys.isEmpty() ? "no variables named" : String.join(", ", keys);
        return (NONE.equals(digest) ? "no env" : "env " + digest.substring(0, 12) + "…") + " (" + names + ")";
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }
}
