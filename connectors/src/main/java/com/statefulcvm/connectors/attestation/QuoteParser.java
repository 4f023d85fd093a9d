package com.statefulcvm.connectors.attestation;

import java.util.Objects;

/**
 * Reads the TDX quote layouts of Intel's "TDX DCAP Quote Generation Library and Quote Verification Library" spec:
 * v4 is header (48) + TD report 1.0 (584); v5 inserts a body descriptor (u16 type, u32 size) after the header so the
 * body can be a TD report 1.0 or 1.5. Both are followed by a u32 length and the ECDSA signature data.
 */
public final class QuoteParser {

    private static final int CERT_DATA_QE_REPORT = 6;
    private static final int CERT_DATA_PCK_CHAIN = 5;

    private QuoteParser() {
    }

    public static Quote parse(byte[] quote) {
        Objects.requireNonNull(quote, "quote");
        byte[] raw = quote.clone();
        ByteReader r = new ByteReader(raw);
        int version = r.u16("header version");
        int keyType = r.u16("header attestation key type");
        long teeType = r.u32("header TEE type");
        int qeSvn = r.u16("header QE SVN");
        int pceSvn = r.u16("header PCE SVN");
        byte[] vendor = r.bytes(16, "header QE vendor id");
        byte[] userData = r.bytes(20, "header user data");
        if (teeType != Quote.TEE_TYPE_TDX) {
            throw new QuoteFormatException(String.format("TEE type 0x%x is not TDX (0x81)", teeType));
        }
        if (keyType != Quote.ATTESTATION_KEY_ECDSA_P256) {
            throw new QuoteFormatException("attestation key type " + keyType + " is not ECDSA P-256 (2)");
        }
        int bodyType;
        long bodySize;
        if (version == 4) {
            bodyType = Quote.BODY_TYPE_TD10;
            bodySize = TdReport.SIZE_V10;
        } else if (version == 5) {
            bodyType = r.u16("body type");
            bodySize = r.u32("body size");
            long expected = bodyType == Quote.BODY_TYPE_TD10 ? TdReport.SIZE_V10
                    : bodyType == Quote.BODY_TYPE_TD15 ? TdReport.SIZE_V15 : -1;
            if (expected < 0) {
                throw new QuoteFormatException("v5 body type " + bodyType + " is not a TD report (2 or 3)");
            }
            if (bodySize != expected) {
                throw new QuoteFormatException("v5 body type " + bodyType + " must be " + expected
                        + " bytes, header says " + bodySize);
            }
        } else {
            throw new QuoteFormatException("quote version " + version + " is not supported (4 or 5)");
        }
        TdReport report = TdReport.parse(r.slice(bodySize, "TD report body"), bodyType == Quote.BODY_TYPE_TD15);
        int signedLength = r.position();

        ByteReader sig = r.slice(r.u32("signature data length"), "signature data");
        byte[] signature = sig.bytes(64, "quote signature");
        byte[] attestationKey = sig.bytes(64, "attestation key");
        int certType = sig.u16("certification data type");
        if (certType != CERT_DATA_QE_REPORT) {
            throw new QuoteFormatException("certification data type " + certType
                    + " is not QE report certification data (6)");
        }
        ByteReader cert = sig.slice(sig.u32("certification data size"), "certification data");
        requireConsumed(sig, "signature data");
        byte[] qeReport = cert.bytes(QeReport.SIZE, "QE report");
        byte[] qeReportSignature = cert.bytes(64, "QE report signature");
        byte[] qeAuthData = cert.bytes(cert.u16("QE auth data size"), "QE auth data");
        int innerType = cert.u16("PCK certification data type");
        if (innerType != CERT_DATA_PCK_CHAIN) {
            throw new QuoteFormatException("PCK certification data type " + innerType
                    + " is not a PEM PCK certificate chain (5)");
        }
        byte[] pckChain = cert.bytes(cert.u32("PCK chain size"), "PCK chain");
        requireConsumed(cert, "certification data");
        // Bytes after the signature data are neither signed nor used; real quotes carry zero padding there.
        return new Quote(raw, version, keyType, teeType, qeSvn, pceSvn, vendor, userData, bodyType, report,
                signedLength, signature, attestationKey, qeReport, qeReportSignature, qeAuthData, pckChain);
    }

    private static void requireConsumed(ByteReader r, String what) {
        if (r.remaining() != 0) {
            throw new QuoteFormatException(what + " has " + r.remaining() + " unexpected trailing bytes");
        }
    }
}
