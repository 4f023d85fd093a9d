package com.statefulcvm.connectors.attestation;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.security.interfaces.ECPublicKey;
import java.security.spec.ECGenParameterSpec;
import java.util.Arrays;

/** Tampered and re-shaped copies of real quotes, built in memory. */
final class QuoteSurgery {

    /** Offsets in a v4 quote. */
    static final int BODY = 48;
    static final int MRTD = 184;
    static final int RTMR3 = 520;
    static final int REPORT_DATA = 568;
    static final int SIGNED_END_V4 = 632;

    private QuoteSurgery() {
    }

    static byte[] flip(byte[] quote, int offset) {
        byte[] copy = quote.clone();
        copy[offset] ^= 0x01;
        return copy;
    }

    /** The same quote with another PEM in its PCK certification data; all enclosing lengths recomputed. */
    static byte[] withPckChain(byte[] quote, String pem) {
        Quote q = QuoteParser.parse(quote);
        return assemble(Arrays.copyOf(quote, q.signedLength()), q.signature(), q.attestationKey(), q.qeReportBytes(),
                q.qeReportSignature(), q.qeAuthData(), (pem + "\0").getBytes(StandardCharsets.US_ASCII));
    }

    /** A v5 quote around the v4 quote's TD report; TD report 1.5 adds TEE_TCB_SVN2 and MRSERVICETD. */
    static byte[] toV5(byte[] v4, boolean td15, byte[] teeTcbSvn2, byte[] mrServiceTd) {
        Quote q = QuoteParser.parse(v4);
        ByteArrayOutputStream signed = new ByteArrayOutputStream();
        byte[] header = Arrays.copyOf(v4, 48);
        header[0] = 5;
        header[1] = 0;
        signed.writeBytes(header);
        signed.writeBytes(le16(td15 ? 3 : 2));
        signed.writeBytes(le32(td15 ? 648 : 584));
        signed.writeBytes(Arrays.copyOfRange(v4, 48, 632));
        if (td15) {
            signed.writeBytes(teeTcbSvn2);
            signed.writeBytes(mrServiceTd);
        }
        return assemble(signed.toByteArray(), q.signature(), q.attestationKey(), q.qeReportBytes(),
                q.qeReportSignature(), q.qeAuthData(), q.pckChainPem().getBytes(StandardCharsets.US_ASCII));
    }

    /** Signs the quote's signed part with a fresh attestation key and puts that key in: the QE no longer binds it. */
    static byte[] resignWithFreshKey(byte[] quote) throws GeneralSecurityException {
        Quote q = QuoteParser.parse(quote);
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec("secp256r1"));
        KeyPair pair = generator.generateKeyPair();
        byte[] signed = Arrays.copyOf(quote, q.signedLength());
        Signature signer = Signature.getInstance("SHA256withECDSAinP1363Format");
        signer.initSign(pair.getPrivate());
        signer.update(signed);
        ECPublicKey pub = (ECPublicKey) pair.getPublic();
        byte[] key = new byte[64];
        unsigned32(pub.getW().getAffineX().toByteArray(), key, 0);
        unsigned32(pub.getW().getAffineY().toByteArray(), key, 32);
        return assemble(signed, signer.sign(), key, q.qeReportBytes(), q.qeReportSignature(), q.qeAuthData(),
                q.pckChainPem().getBytes(StandardCharsets.US_ASCII));
    }

    private static void unsigned32(byte[] bigEndian, byte[] out, int offset) {
        int len = Math.min(bigEndian.length, 32);
        System.arraycopy(bigEndian, bigEndian.length - len, out, offset + 32 - len, len);
    }

    static byte[] assemble(byte[] signedPart, byte[] signature, byte[] attestationKey, byte[] qeReport,
                           byte[] qeReportSignature, byte[] qeAuthData, byte[] pckChain) {
        ByteArrayOutputStream cert = new ByteArrayOutputStream();
        cert.writeBytes(qeReport);
        cert.writeBytes(qeReportSignature);
        cert.writeBytes(le16(qeAuthData.length));
        cert.writeBytes(qeAuthData);
        cert.writeBytes(le16(5));
        cert.writeBytes(le32(pckChain.length));
        cert.writeBytes(pckChain);
        ByteArrayOutputStream sig = new ByteArrayOutputStream();
        sig.writeBytes(signature);
        sig.writeBytes(attestationKey);
        sig.writeBytes(le16(6));
        sig.writeBytes(le32(cert.size()));
        sig.writeBytes(cert.toByteArray());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(signedPart);
        out.writeBytes(le32(sig.size()));
        out.writeBytes(sig.toByteArray());
        return out.toByteArray();
    }

    static byte[] le16(int v) {
        return new byte[] {(byte) v, (byte) (v >>> 8)};
    }

    static byte[] le32(int v) {
        return new byte[] {(byte) v, (byte) (v >>> 8), (byte) (v >>> 16), (byte) (v >>> 24)};
    }

    static String[] pemBlocks(String pem) {
        return Arrays.stream(pem.split("(?<=-----END CERTIFICATE-----)"))
                .map(String::strip).filter(s -> s.startsWith("-----BEGIN")).toArray(String[]::new);
    }
}
