package com.statefulcvm.simulator.evidence;

import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.interfaces.ECPublicKey;
import java.util.HexFormat;

/** Hashes, little-endian writes, hex and raw ECDSA P-256 signatures as the TDX formats want them. */
final class EvidenceBytes {

    private static final HexFormat HEX = HexFormat.of();

    private EvidenceBytes() {
    }

    static String hex(byte[] bytes) {
        return HEX.formatHex(bytes);
    }

    static byte[] unhex(String hex) {
        return HEX.parseHex(hex);
    }

    static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    static byte[] sha256(byte[]... parts) {
        return digest("SHA-256", parts);
    }

    static byte[] sha384(byte[]... parts) {
        return digest("SHA-384", parts);
    }

    private static byte[] digest(String algorithm, byte[]... parts) {
        try {
            MessageDigest md = MessageDigest.getInstance(algorithm);
            for (byte[] part : parts) {
                md.update(part);
            }
            return md.digest();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(algorithm + " is missing from the JDK", e);
        }
    }

    static byte[] le16(int value) {
        return new byte[] {(byte) value, (byte) (value >>> 8)};
    }

    static byte[] le32(long value) {
        return new byte[] {(byte) value, (byte) (value >>> 8), (byte) (value >>> 16), (byte) (value >>> 24)};
    }

    static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }

    /** {@code length} bytes: {@code value} followed by zeros (or cut). */
    static byte[] padded(byte[] value, int length) {
        byte[] out = new byte[length];
        System.arraycopy(value, 0, out, 0, Math.min(value.length, length));
        return out;
    }

    /** ECDSA P-256 over SHA-256, raw {@code r || s} (64 bytes), by the JDK. */
    static byte[] signRaw(PrivateKey key, byte[] data) {
        try {
            Signature signer = Signature.getInstance("SHA256withECDSAinP1363Format");
            signer.initSign(key);
            signer.update(data);
            return signer.sign();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot sign with ECDSA P-256", e);
        }
    }

    /** The raw public key {@code x || y} (64 bytes) of a P-256 key. */
    static byte[] rawPublicKey(ECPublicKey key) {
        return concat(unsigned32(key.getW().getAffineX()), unsigned32(key.getW().getAffineY()));
    }

    private static byte[] unsigned32(BigInteger value) {
        byte[] bytes = value.toByteArray();
        byte[] out = new byte[32];
        int copy = Math.min(bytes.length, 32);
        System.arraycopy(bytes, bytes.length - copy, out, 32 - copy, copy);
        return out;
    }
}
