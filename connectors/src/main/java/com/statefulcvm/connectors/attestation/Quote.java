package com.statefulcvm.connectors.attestation;

import java.nio.charset.StandardCharsets;

/**
 * A parsed TDX DCAP quote, v4 or v5, with ECDSA P-256 attestation key and QE report certification data (type 6)
 * around a PEM PCK chain (type 5). Built by {@link QuoteParser}; nothing here is verified yet.
 */
public final class Quote {

    public static final int TEE_TYPE_TDX = 0x81;
    public static final int ATTESTATION_KEY_ECDSA_P256 = 2;
    public static final int BODY_TYPE_TD10 = 2;
    public static final int BODY_TYPE_TD15 = 3;

    final byte[] raw;
    final int version;
    final int attestationKeyType;
    final long teeType;
    final int qeSvn;
    final int pceSvn;
    final byte[] qeVendorId;
    final byte[] userData;
    final int bodyType;
    final TdReport tdReport;
    /** Bytes 0..signedLength of the quote are what the attestation key signs. */
    final int signedLength;
    final byte[] signature;
    final byte[] attestationKey;
    final byte[] qeReportBytes;
    final QeReport qeReport;
    final byte[] qeReportSignature;
    final byte[] qeAuthData;
    final String pckChainPem;

    Quote(byte[] raw, int version, int attestationKeyType, long teeType, int qeSvn, int pceSvn, byte[] qeVendorId,
          byte[] userData, int bodyType, TdReport tdReport, int signedLength, byte[] signature,
          byte[] attestationKey, byte[] qeReportBytes, byte[] qeReportSignature, byte[] qeAuthData,
          byte[] pckChain) {
        this.raw = raw;
        this.version = version;
        this.attestationKeyType = attestationKeyType;
        this.teeType = teeType;
        this.qeSvn = qeSvn;
        this.pceSvn = pceSvn;
        this.qeVendorId = qeVendorId;
        this.userData = userData;
        this.bodyType = bodyType;
        this.tdReport = tdReport;
        this.signedLength = signedLength;
        this.signature = signature;
        this.attestationKey = attestationKey;
        this.qeReportBytes = qeReportBytes;
        this.qeReport = QeReport.parse(qeReportBytes);
        this.qeReportSignature = qeReportSignature;
        this.qeAuthData = qeAuthData;
        // The PEM blob is NUL-terminated in real quotes; the terminator is not part of the chain.
        this.pckChainPem = new String(pckChain, StandardCharsets.US_ASCII).replace("\0", "");
    }

    public byte[] raw() {
        return raw.clone();
    }

    public int version() {
        return version;
    }

    public int attestationKeyType() {
        return attestationKeyType;
    }

    public long teeType() {
        return teeType;
    }

    public int qeSvn() {
        return qeSvn;
    }

    public int pceSvn() {
        return pceSvn;
    }

    public byte[] qeVendorId() {
        return qeVendorId.clone();
    }

    public byte[] userData() {
        return userData.clone();
    }

    /** {@link #BODY_TYPE_TD10} or {@link #BODY_TYPE_TD15}; always TD10 for a v4 quote. */
    public int bodyType() {
        return bodyType;
    }

    public TdReport tdReport() {
        return tdReport;
    }

    public int signedLength() {
        return signedLength;
    }

    public byte[] signature() {
        return signature.clone();
    }

    /** The raw P-256 public key, x || y (64 bytes). */
    public byte[] attestationKey() {
        return attestationKey.clone();
    }

    public QeReport qeReport() {
        return qeReport;
    }

    public byte[] qeReportBytes() {
        return qeReportBytes.clone();
    }

    public byte[] qeReportSignature() {
        return qeReportSignature.clone();
    }

    public byte[] qeAuthData() {
        return qeAuthData.clone();
    }

    /** The PCK certificate chain exactly as the quote carries it (leaf first), without the NUL terminator. */
    public String pckChainPem() {
        return pckChainPem;
    }
}
