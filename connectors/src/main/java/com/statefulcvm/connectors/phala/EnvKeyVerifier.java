package com.statefulcvm.connectors.phala;

import com.statefulcvm.connectors.phala.model.EnvEncryptPubkey;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;
import org.bouncycastle.asn1.x9.X9ECParameters;
import org.bouncycastle.crypto.digests.KeccakDigest;
import org.bouncycastle.crypto.ec.CustomNamedCurves;
import org.bouncycastle.math.ec.ECAlgorithms;
import org.bouncycastle.math.ec.ECPoint;
import org.bouncycastle.math.ec.custom.sec.SecP256K1Curve;

/**
 * Checks an app's env encryption key against the KMS signature that comes with it, before anything is sealed to it,
 * exactly as dstack's SDK does ({@code @phala/dstack-sdk} {@code verifyEnvEncryptPublicKey}, which {@code @phala/cloud}
 * re-exports): the message is {@code "dstack-env-encrypt-pubkey" || ":" || app_id (20 bytes) || public_key (32 bytes)},
 * hashed with Keccak-256; the 65-byte signature {@code r || s || v} recovers a secp256k1 public key. That recovered key
 * must be one of the KMS signing keys this deployment trusts (the KMS's {@code k256} root key, pinned in
 * configuration): a key the service hands out without such a signature could be anyone's.
 */
public final class EnvKeyVerifier {

    private static final byte[] PREFIX = "dstack-env-encrypt-pubkey".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] SEPARATOR = ":".getBytes(StandardCharsets.US_ASCII);
    private static final X9ECParameters CURVE = CustomNamedCurves.getByName("secp256k1");
    private static final HexFormat HEX = HexFormat.of();

    private final Set<String> trustedSigners;

    /** @param trustedSigners compressed secp256k1 public keys (33 bytes, hex, with or without {@code 0x}) */
    public EnvKeyVerifier(Set<String> trustedSigners) {
        this.trustedSigners = trustedSigners.stream().map(EnvKeyVerifier::normalize).collect(Collectors.toUnmodifiableSet());
    }

    public boolean hasTrustedSigners() {
        return !trustedSigners.isEmpty();
    }

    /**
     * @return the verified public key (hex, without {@code 0x})
     * @throws IllegalArgumentException naming what is wrong: malformed key or signature, a signature that recovers no
     *                                  key, or one made by a signer this deployment does not trust
     */
    public String verified(String appId, EnvEncryptPubkey answer) {
        if (trustedSigners.isEmpty()) {
            throw new IllegalArgumentException("no trusted KMS signing key is configured "
                    + "(orchestrator.phala.kms-signers): the env encryption key cannot be checked, so nothing is sealed to it");
        }
        String publicKey = strip(answer.publicKey());
        if (!EnvEncryption.isPublicKey(publicKey)) {
            throw new IllegalArgumentException("the KMS's env encryption key for app " + appId + " is not 32 bytes of hex");
        }
        String signer = recoverSigner(AppIds.bare(appId), HEX.parseHex(publicKey), signatureBytes(answer.signature()));
        if (!trustedSigners.contains(signer)) {
            throw new IllegalArgumentException("the env encryption key for app " + appId + " is signed by " + signer
                    + ", not by a trusted KMS signing key");
        }
        return publicKey.toLowerCase(Locale.ROOT);
    }

    /** The compressed public key (hex, {@code 0x}-prefixed) whose signature this is; dstack's {@code verifyEnvEncryptPublicKey}. */
    static String recoverSigner(String appIdHex, byte[] publicKey, byte[] signature) {
        byte[] appId;
        try {
            appId = HEX.parseHex(strip(appIdHex));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("app id " + appIdHex + " is not hex");
        }
        byte[] message = concat(PREFIX, SEPARATOR, appId, publicKey);
        byte[] hash = keccak256(message);
        BigInteger r = new BigInteger(1, java.util.Arrays.copyOfRange(signature, 0, 32));
        BigInteger s = new BigInteger(1, java.util.Arrays.copyOfRange(signature, 32, 64));
        int v = signature[64] & 0xff;
        int recoveryId = v >= 27 ? v - 27 : v;
        ECPoint q = recover(hash, r, s, recoveryId);
        return "0x" + HEX.formatHex(q.getEncoded(true));
    }

    static byte[] keccak256(byte[] message) {
        KeccakDigest digest = new KeccakDigest(256);
        digest.update(message, 0, message.length);
        byte[] out = new byte[32];
        digest.doFinal(out, 0);
        return out;
    }

    /** SEC 1 v2, 4.1.6: the public key whose signature (r, s) over {@code hash} this is, for recovery id 0 or 1. */
    private static ECPoint recover(byte[] hash, BigInteger r, BigInteger s, int recoveryId) {
        BigInteger n = CURVE.getN();
        if (recoveryId < 0 || recoveryId > 1 || r.signum() <= 0 || r.compareTo(n) >= 0 || s.signum() <= 0 || s.compareTo(n) >= 0) {
            throw new IllegalArgumentException("the KMS signature is not a valid secp256k1 signature");
        }
        BigInteger prime = SecP256K1Curve.q;
        if (r.compareTo(prime) >= 0) {
            throw new IllegalArgumentException("the KMS signature is not a valid secp256k1 signature");
        }
        ECPoint rPoint = decompress(r, (recoveryId & 1) == 1);
        if (rPoint == null || !rPoint.multiply(n).isInfinity()) {
            throw new IllegalArgumentException("the KMS signature recovers no public key");
        }
        BigInteger e = new BigInteger(1, hash);
        BigInteger rInv = r.modInverse(n);
        BigInteger u1 = e.negate().mod(n).multiply(rInv).mod(n);
        BigInteger u2 = s.multiply(rInv).mod(n);
        ECPoint q = ECAlgorithms.sumOfTwoMultiplies(CURVE.getG(), u1, rPoint, u2).normalize();
        if (q.isInfinity()) {
            throw new IllegalArgumentException("the KMS signature recovers no public key");
        }
        return q;
    }

    private static ECPoint decompress(BigInteger x, boolean odd) {
        byte[] encoded = new byte[33];
        encoded[0] = (byte) (odd ? 0x03 : 0x02);
        byte[] xBytes = x.toByteArray();
        int copy = Math.min(32, xBytes.length);
        System.arraycopy(xBytes, xBytes.length - copy, encoded, 33 - copy, copy);
        try {
            return CURVE.getCurve().decodePoint(encoded);
        } catch (IllegalArgumentException notOnCurve) {
            return null;
        }
    }

    private static byte[] signatureBytes(String signature) {
        String hex = strip(signature);
        if (!hex.matches("^[0-9a-fA-F]{130}$")) {
            throw new IllegalArgumentException("the KMS signature is not 65 bytes of hex");
        }
        return HEX.parseHex(hex);
    }

    private static String normalize(String compressedKey) {
        String hex = strip(compressedKey).toLowerCase(Locale.ROOT);
        if (!hex.matches("^0[23][0-9a-f]{64}$")) {
            throw new IllegalArgumentException("a trusted KMS signing key must be a compressed secp256k1 public key "
                    + "(33 bytes of hex starting 02 or 03), got " + compressedKey);
        }
        return "0x" + hex;
    }

    private static String strip(String hex) {
        if (hex == null) {
            return "";
        }
        String trimmed = hex.trim();
        return trimmed.startsWith("0x") || trimmed.startsWith("0X") ? trimmed.substring(2) : trimmed;
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
