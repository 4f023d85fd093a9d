package com.statefulcvm.simulator.cloud;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

import org.bouncycastle.asn1.x9.X9ECParameters;
import org.bouncycastle.crypto.agreement.X25519Agreement;
import org.bouncycastle.crypto.digests.KeccakDigest;
import org.bouncycastle.crypto.digests.SHA256Digest;
import org.bouncycastle.crypto.ec.CustomNamedCurves;
import org.bouncycastle.crypto.engines.AESEngine;
import org.bouncycastle.crypto.modes.GCMBlockCipher;
import org.bouncycastle.crypto.params.AEADParameters;
import org.bouncycastle.crypto.params.KeyParameter;
import org.bouncycastle.crypto.params.X25519PrivateKeyParameters;
import org.bouncycastle.crypto.params.X25519PublicKeyParameters;
import org.bouncycastle.crypto.signers.HMacDSAKCalculator;
import org.bouncycastle.math.ec.ECPoint;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The simulator's KMS, doing what dstack's KMS does for env encryption: each app gets an X25519 key pair derived from
 * the KMS's root secret and the app id ({@code GetAppEnvEncryptPubKey}); the public key is signed with the KMS's
 * secp256k1 root key over {@code keccak256("dstack-env-encrypt-pubkey" || ":" || app_id || public_key)} (the message
 * {@code @phala/dstack-sdk}'s {@code verifyEnvEncryptPublicKey} checks); and an {@code encrypted_env} is really opened
 * with the app's private key: X25519 with the sender's ephemeral key (first 32 bytes), AES-256-GCM with the 12-byte IV
 * that follows (the format of {@code encryptEnvVars}). A ciphertext it cannot open is refused, as the CVM could not open
 * it either. The root secret is fixed, so keys survive restarts and state files: this KMS protects nothing real.
 */
public final class SimulatedKms {

    public static final String ID = CvmSnapshot.KMS_ID;
    public static final String SLUG = CvmSnapshot.KMS_SLUG;

    private static final byte[] ROOT_SECRET = sha256("stateful-cvm-orchestrator simulated dstack KMS root secret"
            .getBytes(StandardCharsets.UTF_8));
    private static final X9ECParameters K256 = CustomNamedCurves.getByName("secp256k1");
    private static final BigInteger SIGNING_KEY = new BigInteger(1, sha256(concat(ROOT_SECRET,
            "k256".getBytes(StandardCharsets.US_ASCII)))).mod(K256.getN().subtract(BigInteger.ONE)).add(BigInteger.ONE);
    private static final HexFormat HEX = HexFormat.of();
    private static final ObjectMapper JSON = new ObjectMapper();

    private SimulatedKms() {
    }

    /** The compressed secp256k1 public key of the KMS's signing key, {@code 0x}-prefixed: what a client pins. */
    public static String signerPublicKey() {
        return "0x" + HEX.formatHex(K256.getG().multiply(SIGNING_KEY).normalize().getEncoded(true));
    }

    /** Whether {@code kms} names this KMS (its id or its slug). */
    public static boolean isThisKms(String kms) {
        return ID.equals(kms) || SLUG.equals(kms);
    }

    /** The app's env encryption public key, 32 bytes as hex. */
    static String envPublicKey(String appId) {
        return HEX.formatHex(privateKey(appId).generatePublicKey().getEncoded());
    }

    /** {@code {public_key, signature}} as {@code GET /kms/{kms}/pubkey/{app_id}} answers: the signature is r || s || v. */
    static Map<String, String> signedEnvPublicKey(String appId) {
        byte[] publicKey = privateKey(appId).generatePublicKey().getEncoded();
        byte[] message = concat("dstack-env-encrypt-pubkey".getBytes(StandardCharsets.US_ASCII),
                ":".getBytes(StandardCharsets.US_ASCII), HEX.parseHex(bare(appId)), publicKey);
        return Map.of("public_key", HEX.formatHex(publicKey), "signature", HEX.formatHex(sign(keccak256(message))));
    }

    /**
     * Opens an {@code encrypted_env} sealed to the app's key and answers the variable names it holds.
     *
     * @throws ApiException 400 naming why when it is not hex, too short, or does not open with the app's key
     */
    static List<String> open(String appId, String encryptedEnvHex) {
        try {
            JsonNode env = JSON.readTree(decrypt(appId, encryptedEnvHex)).get("env");
            if (env == null || !env.isArray()) {
                throw ApiException.badRequest("encrypted_env does not hold {\"env\": [{\"key\", \"value\"}]}");
            }
            List<String> names = new ArrayList<>();
            env.forEach(entry -> names.add(entry.path("key").asText()));
            return names;
        } catch (java.io.IOException e) {
            throw ApiException.badRequest("encrypted_env does not decrypt to JSON");
        }
    }

    /**
     * What the app's CVM reads from an {@code encrypted_env}: the JSON text it was sealed from. For tests that check
     * what reached the CVM; the API never answers it.
     *
     * @throws ApiException 400 naming why when it does not open with the app's key
     */
    public static String decrypt(String appId, String encryptedEnvHex) {
        byte[] sealed;
        try {
            sealed = HEX.parseHex(encryptedEnvHex.startsWith("0x") ? encryptedEnvHex.substring(2) : encryptedEnvHex);
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest("encrypted_env is not hex");
        }
        if (sealed.length < 32 + 12 + 16) {
            throw ApiException.badRequest("encrypted_env is too short to hold an X25519 key, an IV and an AES-GCM tag");
        }
        byte[] shared = new byte[32];
        X25519Agreement agreement = new X25519Agreement();
        agreement.init(privateKey(appId));
        agreement.calculateAgreement(new X25519PublicKeyParameters(sealed, 0), shared, 0);
        GCMBlockCipher cipher = (GCMBlockCipher) GCMBlockCipher.newInstance(AESEngine.newInstance());
        cipher.init(false, new AEADParameters(new KeyParameter(shared), 128, java.util.Arrays.copyOfRange(sealed, 32, 44)));
        byte[] plain = new byte[cipher.getOutputSize(sealed.length - 44)];
        try {
            int length = cipher.processBytes(sealed, 44, sealed.length - 44, plain, 0);
            length += cipher.doFinal(plain, length);
            return new String(plain, 0, length, StandardCharsets.UTF_8);
        } catch (org.bouncycastle.crypto.InvalidCipherTextException e) {
            throw ApiException.badRequest("encrypted_env cannot be decrypted with the app's env encryption key "
                    + "(it was not sealed to app " + bare(appId) + "'s key from its KMS)");
        }
    }

    private static X25519PrivateKeyParameters privateKey(String appId) {
        byte[] seed = sha256(concat(ROOT_SECRET, "env".getBytes(StandardCharsets.US_ASCII),
                bare(appId).getBytes(StandardCharsets.US_ASCII)));
        return new X25519PrivateKeyParameters(seed, 0);
    }

    /** ECDSA over secp256k1 (RFC 6979 nonce, low s) with the recovery id appended, as Ethereum signs. */
    private static byte[] sign(byte[] hash) {
        BigInteger n = K256.getN();
        HMacDSAKCalculator nonces = new HMacDSAKCalculator(new SHA256Digest());
        nonces.init(n, SIGNING_KEY, hash);
        BigInteger e = new BigInteger(1, hash);
        for (;;) {
            BigInteger k = nonces.nextK();
            ECPoint point = K256.getG().multiply(k).normalize();
            BigInteger r = point.getAffineXCoord().toBigInteger().mod(n);
            if (r.signum() == 0) {
                continue;
            }
            BigInteger s = k.modInverse(n).multiply(e.add(SIGNING_KEY.multiply(r))).mod(n);
            if (s.signum() == 0) {
                continue;
            }
            int recoveryId = point.getAffineYCoord().toBigInteger().testBit(0) ? 1 : 0;
            if (point.getAffineXCoord().toBigInteger().compareTo(n) >= 0) {
                recoveryId |= 2;
            }
            if (s.compareTo(n.shiftRight(1)) > 0) {
                s = n.subtract(s);
                recoveryId ^= 1;
            }
            byte[] signature = new byte[65];
            System.arraycopy(fixed32(r), 0, signature, 0, 32);
            System.arraycopy(fixed32(s), 0, signature, 32, 32);
            signature[64] = (byte) recoveryId;
            return signature;
        }
    }

    private static byte[] fixed32(BigInteger value) {
        byte[] raw = value.toByteArray();
        byte[] out = new byte[32];
        int copy = Math.min(32, raw.length);
        System.arraycopy(raw, raw.length - copy, out, 32 - copy, copy);
        return out;
    }

    private static byte[] keccak256(byte[] message) {
        KeccakDigest digest = new KeccakDigest(256);
        digest.update(message, 0, message.length);
        byte[] out = new byte[32];
        digest.doFinal(out, 0);
        return out;
    }

    private static String bare(String appId) {
        String id = appId.startsWith("app_") ? appId.substring(4) : appId;
        return id.startsWith("0x") ? id.substring(2) : id;
    }

    private static byte[] sha256(byte[] input) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(input);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] concat(byte[]... parts) {
        int length = 0;
        for (byte[] part : parts) {
            length += part.length;
        }
        byte[] out = new byte[length];
        int at = 0;
        for (byte[] part : parts) {
            System.arraycopy(part, 0, out, at, part.length);
            at += part.length;
        }
        return out;
    }
}
