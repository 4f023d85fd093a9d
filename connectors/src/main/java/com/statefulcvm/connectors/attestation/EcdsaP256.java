package com.statefulcvm.connectors.attestation;

import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.PublicKey;
import java.security.interfaces.ECPublicKey;
import java.util.Arrays;
import org.bouncycastle.asn1.x9.X9ECParameters;
import org.bouncycastle.crypto.ec.CustomNamedCurves;
import org.bouncycastle.crypto.params.ECDomainParameters;
import org.bouncycastle.crypto.params.ECPublicKeyParameters;
import org.bouncycastle.crypto.signers.ECDSASigner;

/**
 * ECDSA P-256 / SHA-256 as DCAP uses it: signatures raw r || s (IEEE P1363), keys raw x || y or from certificates.
 * The curve arithmetic is Bouncy Castle's lightweight API, not ours and not a JCA provider (nothing global changes):
 * JDK 17's SunEC needs about 1.5 ms per verification, Bouncy Castle's specialised secp256r1 about 0.1 ms, and one
 * quote with its collateral takes about ten.
 */
final class EcdsaP256 {

    private static final X9ECParameters CURVE = CustomNamedCurves.getByName("secp256r1");
    private static final ECDomainParameters DOMAIN = new ECDomainParameters(CURVE.getCurve(), CURVE.getG(),
            CURVE.getN(), CURVE.getH());

    /** A validated P-256 public key. */
    static final class Key {

        private final ECPublicKeyParameters params;

        private Key(ECPublicKeyParameters params) {
            this.params = params;
        }
    }

    private EcdsaP256() {
    }

    static Key key(byte[] rawXy) throws GeneralSecurityException {
        if (rawXy.length != 64) {
            throw new GeneralSecurityException("a raw P-256 key is 64 bytes, not " + rawXy.length);
        }
        return key(new BigInteger(1, Arrays.copyOfRange(rawXy, 0, 32)),
                new BigInteger(1, Arrays.copyOfRange(rawXy, 32, 64)));
    }

    static Key key(PublicKey publicKey) throws GeneralSecurityException {
        if (!(publicKey instanceof ECPublicKey ec)) {
            throw new GeneralSecurityException("not an EC key: " + publicKey.getAlgorithm());
        }
        if (!CURVE.getN().equals(ec.getParams().getOrder())
                || !CURVE.getCurve().getA().toBigInteger().equals(ec.getParams().getCurve().getA())) {
            throw new GeneralSecurityException("not a P-256 key");
        }
        return key(ec.getW().getAffineX(), ec.getW().getAffineY());
    }

    private static Key key(BigInteger x, BigInteger y) throws GeneralSecurityException {
        try {
            // ECPublicKeyParameters rejects points off the curve and the point at infinity.
            return new Key(new ECPublicKeyParameters(CURVE.getCurve().createPoint(x, y), DOMAIN));
        } catch (IllegalArgumentException e) {
            throw new GeneralSecurityException("not a point on P-256: " + e.getMessage());
        }
    }

    /** False for a wrong signature; throws only when the signature cannot be used at all. */
    static boolean verify(Key key, byte[] data, int length, byte[] rawSignature) throws GeneralSecurityException {
        if (rawSignature.length != 64) {
            throw new GeneralSecurityException("a raw P-256 signature is 64 bytes, not " + rawSignature.length);
        }
        MessageDigest sha = sha256();
        sha.update(data, 0, length);
        ECDSASigner verifier = new ECDSASigner();
        verifier.init(false, key.params);
        return verifier.verifySignature(sha.digest(), new BigInteger(1, Arrays.copyOfRange(rawSignature, 0, 32)),
                new BigInteger(1, Arrays.copyOfRange(rawSignature, 32, 64)));
    }

    static boolean verify(Key key, byte[] data, byte[] rawSignature) throws GeneralSecurityException {
        return verify(key, data, data.length, rawSignature);
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK lacks SHA-256", e);
        }
    }
}
