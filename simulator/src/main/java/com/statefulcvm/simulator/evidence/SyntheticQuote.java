package com.statefulcvm.simulator.evidence;

import static com.statefulcvm.simulator.evidence.EvidenceBytes.concat;
import static com.statefulcvm.simulator.evidence.EvidenceBytes.le16;
import static com.statefulcvm.simulator.evidence.EvidenceBytes.le32;
import static com.statefulcvm.simulator.evidence.EvidenceBytes.padded;
import static com.statefulcvm.simulator.evidence.EvidenceBytes.sha256;
import static com.statefulcvm.simulator.evidence.EvidenceBytes.utf8;

import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.interfaces.ECPublicKey;

/**
 * A TDX quote v4 in exactly Intel's layout, signed by keys of the {@link SimulatedTdxAuthority} instead of a real
 * quoting enclave:
 * <pre>
 * header (48)           version 4, attestation key type 2 (ECDSA-256-with-P-256), TEE type 0x81, QE vendor id, user data
 * TD report body (584)  TEE_TCB_SVN, MRSEAM, MRSIGNERSEAM, SEAMATTRIBUTES, TDATTRIBUTES, XFAM, MRTD (quote offset 184),
 *                       MRCONFIGID, MROWNER, MROWNERCONFIG, RTMR0..3 (376, 424, 472, 520), REPORTDATA (568..632)
 * u32 signature data length, then the signature data:
 *   ECDSA signature r || s over header + body, by the attestation key (64)
 *   attestation public key x || y (64)
 *   certification data type 6 (u16), size (u32): QE report certification data
 *     QE report (384), whose REPORTDATA = SHA-256(attestation key || QE auth data) || 32 zero bytes
 *     QE report signature by the PCK key (64)
 *     QE auth data size (u16) and data
 *     certification data type 5 (u16), size (u32): PEM chain PCK leaf, PCK platform CA, root, NUL-terminated
 * </pre>
 */
public final class SyntheticQuote {

    public static final int HEADER_SIZE = 48;
    public static final int BODY_SIZE = 584;
    public static final int MRTD_OFFSET = 184;
    public static final int RTMR0_OFFSET = 376;
    public static final int REPORT_DATA_OFFSET = 568;
    public static final int SIGNED_SIZE = HEADER_SIZE + BODY_SIZE;
    static final int QE_REPORT_SIZE = 384;

    private static final int VERSION = 4;
    private static final int ATTESTATION_KEY_TYPE_ECDSA_P256 = 2;
    private static final long TEE_TYPE_TDX = 0x81;
    private static final int CERT_DATA_QE_REPORT = 6;
    private static final int CERT_DATA_PCK_CHAIN = 5;
    private static final byte[] USER_DATA = padded(sha256(utf8("stateful-cvm-simulator QE id")), 20);

    private SyntheticQuote() {
    }

    /**
     * One CVM's attestation key and the certification data that vouches for it (made once per key: the QE report
     * binding the key, signed by the PCK key, and the PCK chain).
     */
    public static final class AttestationKey {

        private final KeyPair keyPair;
        private final byte[] publicKey;
        private final byte[] certificationData;

        private AttestationKey(KeyPair keyPair, byte[] publicKey, byte[] certificationData) {
            this.keyPair = keyPair;
            this.publicKey = publicKey;
            this.certificationData = certificationData;
        }

        /** The raw public key, x || y. */
        public byte[] publicKey() {
            return publicKey.clone();
        }
    }

    /** A fresh attestation key certified by the authority's (simulated) quoting enclave and PCK key. */
    public static AttestationKey newAttestationKey(SimulatedTdxAuthority authority) {
        KeyPair keyPair = SimulatedTdxAuthority.newKeyPair();
        byte[] publicKey = EvidenceBytes.rawPublicKey((ECPublicKey) keyPair.getPublic());
        byte[] qeReport = qeReport(publicKey, SimulatedPlatform.QE_AUTH_DATA);
        byte[] pckChain = concat(authority.pckChainPem().getBytes(StandardCharsets.US_ASCII), new byte[1]);
        byte[] certificationData = concat(
                qeReport,
                authority.signWithPckKey(qeReport),
                le16(SimulatedPlatform.QE_AUTH_DATA.length), SimulatedPlatform.QE_AUTH_DATA,
                le16(CERT_DATA_PCK_CHAIN), le32(pckChain.length), pckChain);
        return new AttestationKey(keyPair, publicKey, certificationData);
    }

    /**
     * The quote of a TD with these measurements and {@code reportData} (at most 64 bytes, zero-padded), signed by
     * {@code key}; with {@code breakSignature}, one bit of the signature is flipped afterwards.
     */
    public static byte[] build(CvmMeasurements measurements, byte[] reportData, AttestationKey key,
                               boolean breakSignature) {
        if (reportData.length > 64) {
            throw new IllegalArgumentException("report_data is at most 64 bytes, not " + reportData.length);
        }
        byte[] signed = concat(header(), body(measurements, padded(reportData, 64)));
        byte[] signature = EvidenceBytes.signRaw(key.keyPair.getPrivate(), signed);
        if (breakSignature) {
            signature[63] ^= 0x01;
        }
        byte[] signatureData = concat(signature, key.publicKey, le16(CERT_DATA_QE_REPORT),
                le32(key.certificationData.length), key.certificationData);
        return concat(signed, le32(signatureData.length), signatureData);
    }

    private static byte[] header() {
        return concat(le16(VERSION), le16(ATTESTATION_KEY_TYPE_ECDSA_P256), le32(TEE_TYPE_TDX),
                le16(0), le16(0), SimulatedPlatform.QE_VENDOR_ID, USER_DATA);
    }

    private static byte[] body(CvmMeasurements m, byte[] reportData) {
        byte[] body = concat(
                SimulatedPlatform.TEE_TCB_SVN,
                SimulatedPlatform.MR_SEAM,
                SimulatedPlatform.MR_SIGNER_SEAM,
                SimulatedPlatform.SEAM_ATTRIBUTES,
                SimulatedPlatform.TD_ATTRIBUTES,
                SimulatedPlatform.XFAM,
                m.mrTd(),
                m.mrConfigId(),
                new byte[48],   // MROWNER
                new byte[48],   // MROWNERCONFIG
                m.rtmr0(), m.rtmr1(), m.rtmr2(), m.rtmr3(),
                reportData);
        if (body.length != BODY_SIZE) {
            throw new IllegalStateException("TD report body is " + body.length + " bytes, not " + BODY_SIZE);
        }
        return body;
    }

    /** The QE's SGX report: the simulated QE identity, REPORTDATA binding the attestation key. */
    static byte[] qeReport(byte[] attestationKey, byte[] authData) {
        byte[] report = concat(
                SimulatedPlatform.cpuSvn(),
                le32(SimulatedPlatform.QE_MISC_SELECT),
                new byte[28],
                SimulatedPlatform.QE_ATTRIBUTES,
                SimulatedPlatform.QE_MR_ENCLAVE,
                new byte[32],
                SimulatedPlatform.QE_MR_SIGNER,
                new byte[96],
                le16(SimulatedPlatform.QE_ISV_PROD_ID),
                le16(SimulatedPlatform.QE_ISV_SVN),
                new byte[60],
                padded(sha256(attestationKey, authData), 64));
        if (report.length != QE_REPORT_SIZE) {
            throw new IllegalStateException("QE report is " + report.length + " bytes, not " + QE_REPORT_SIZE);
        }
        return report;
    }
}
