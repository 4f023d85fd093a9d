package com.statefulcvm.connectors.phala;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import javax.crypto.Cipher;
import javax.crypto.KeyAgreement;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.interfaces.XECPublicKey;
import java.security.spec.NamedParameterSpec;
import java.security.spec.XECPublicKeySpec;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Encrypts environment variables the way Phala Cloud and dstack expect them in {@code encrypted_env}: the JSON
 * {@code {"env":[{"key":..,"value":..}]}} sealed with AES-256-GCM under the X25519 shared secret of a fresh ephemeral
 * key and the app's env encryption public key ({@code app_env_encrypt_pubkey}), sent as hex of
 * {@code ephemeral public key (32) || IV (12) || ciphertext with tag}. Only the CVM (its KMS-derived private key) can
 * read it; neither Phala nor anyone holding the ciphertext can. The clear values exist only in memory while this runs.
 */
public final class EnvEncryption {

    /** A name the shell and docker-compose both accept. */
    private static final Pattern ENV_NAME = Pattern.compile("^[A-Za-z_][A-Za-z0-9_]*$");
    private static final int KEY_BYTES = 32;
    private static final int IV_BYTES = 12;
    private static final int TAG_BITS = 128;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final SecureRandom RANDOM = new SecureRandom();

    private EnvEncryption() {
    }

    /** What the API is sent: the hex ciphertext and the variable names ({@code env_keys}). */
    public record Sealed(String encryptedEnv, List<String> envKeys) {

        /** Never the ciphertext in full: it is not secret, but it is long and useless to a reader. */
        @Override
        public String toString() {
            return "Sealed[envKeys=" + envKeys + ", " + encryptedEnv.length() / 2 + " bytes]";
        }
    }

    /** @throws IllegalArgumentException naming the bad name, or a public key that is not 32 bytes of hex */
    public static Sealed seal(Map<String, String> env, String publicKeyHex) {
        List<String> keys = new ArrayList<>(env.keySet());
        keys.forEach(EnvEncryption::requireName);
        byte[] plaintext = plaintext(env);
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("X25519");
            KeyPair ephemeral = generator.generateKeyPair();
            KeyAgreement agreement = KeyAgreement.getInstance("X25519");
            agreement.init(ephemeral.getPrivate());
            agreement.doPhase(publicKey(publicKeyHex), true);
            byte[] shared = agreement.generateSecret();
            byte[] iv = new byte[IV_BYTES];
            RANDOM.nextBytes(iv);
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(shared, "AES"), new GCMParameterSpec(TAG_BITS, iv));
            byte[] sealed = cipher.doFinal(plaintext);
            byte[] out = new byte[KEY_BYTES + IV_BYTES + sealed.length];
            System.arraycopy(rawPublicKey((XECPublicKey) ephemeral.getPublic()), 0, out, 0, KEY_BYTES);
            System.arraycopy(iv, 0, out, KEY_BYTES, IV_BYTES);
            System.arraycopy(sealed, 0, out, KEY_BYTES + IV_BYTES, sealed.length);
            java.util.Arrays.fill(plaintext, (byte) 0);
            java.util.Arrays.fill(shared, (byte) 0);
            return new Sealed(HexFormat.of().formatHex(out), List.copyOf(keys));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("env encryption failed: " + e.getClass().getSimpleName(), e);
        }
    }

    public static void requireName(String name) {
        if (name == null || !ENV_NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("envs." + name + ": is not an environment variable name (letters, digits and '_', not starting with a digit)");
        }
    }

    /** The X25519 public key of 32 bytes (64 hex characters, optionally {@code 0x}-prefixed). */
    public static boolean isPublicKey(String hex) {
        String bare = hex == null ? "" : hex.startsWith("0x") ? hex.substring(2) : hex;
        return bare.matches("^[0-9a-fA-F]{64}$");
    }

    static PublicKey publicKey(String hex) throws GeneralSecurityException {
        if (!isPublicKey(hex)) {
            throw new IllegalArgumentException("the app's env encryption public key must be 32 bytes of hex");
        }
        byte[] raw = HexFormat.of().parseHex(hex.startsWith("0x") ? hex.substring(2) : hex);
        // RFC 7748: little-endian u-coordinate, the top bit masked
        raw[KEY_BYTES - 1] &= 0x7f;
        byte[] bigEndian = new byte[KEY_BYTES];
        for (int i = 0; i < KEY_BYTES; i++) {
            bigEndian[i] = raw[KEY_BYTES - 1 - i];
        }
        return KeyFactory.getInstance("X25519")
                .generatePublic(new XECPublicKeySpec(NamedParameterSpec.X25519, new BigInteger(1, bigEndian)));
    }

    static byte[] rawPublicKey(XECPublicKey key) {
        byte[] bigEndian = key.getU().toByteArray();
        byte[] raw = new byte[KEY_BYTES];
        for (int i = 0; i < Math.min(KEY_BYTES, bigEndian.length); i++) {
            raw[i] = bigEndian[bigEndian.length - 1 - i];
        }
        return raw;
    }

    private static byte[] plaintext(Map<String, String> env) {
        List<Map<String, String>> entries = new ArrayList<>();
        env.forEach((key, value) -> {
            Map<String, String> entry = new LinkedHashMap<>();
            entry.put("key", key);
            entry.put("value", value == null ? "" : value);
            entries.add(entry);
        });
        try {
            return JSON.writeValueAsBytes(Map.of("env", entries));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("env encryption failed: the variables could not be written as JSON", e);
        }
    }

    /** For tests and tools: the UTF-8 JSON a CVM would read after decrypting. */
    static String plaintextJson(Map<String, String> env) {
        return new String(plaintext(env), StandardCharsets.UTF_8);
    }
}
