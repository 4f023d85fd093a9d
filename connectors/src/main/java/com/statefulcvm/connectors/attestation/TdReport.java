package com.statefulcvm.connectors.attestation;

/**
 * The TD report body of a TDX quote: TD report 1.0 (584 bytes, quote v4 and v5 body type 2) or TD report 1.5
 * (648 bytes, quote v5 body type 3, which adds TEE_TCB_SVN2 and MRSERVICETD). Accessors return copies.
 */
public final class TdReport {

    static final int SIZE_V10 = 584;
    static final int SIZE_V15 = 648;

    final byte[] teeTcbSvn;
    final byte[] mrSeam;
    final byte[] mrSignerSeam;
    final byte[] seamAttributes;
    final byte[] tdAttributes;
    final byte[] xfam;
    final byte[] mrTd;
    final byte[] mrConfigId;
    final byte[] mrOwner;
    final byte[] mrOwnerConfig;
    final byte[] rtmr0;
    final byte[] rtmr1;
    final byte[] rtmr2;
    final byte[] rtmr3;
    final byte[] reportData;
    final byte[] teeTcbSvn2;
    final byte[] mrServiceTd;

    private TdReport(ByteReader r, boolean v15) {
        teeTcbSvn = r.bytes(16, "td report TEE_TCB_SVN");
        mrSeam = r.bytes(48, "td report MRSEAM");
        mrSignerSeam = r.bytes(48, "td report MRSIGNERSEAM");
        seamAttributes = r.bytes(8, "td report SEAMATTRIBUTES");
        tdAttributes = r.bytes(8, "td report TDATTRIBUTES");
        xfam = r.bytes(8, "td report XFAM");
        mrTd = r.bytes(48, "td report MRTD");
        mrConfigId = r.bytes(48, "td report MRCONFIGID");
        mrOwner = r.bytes(48, "td report MROWNER");
        mrOwnerConfig = r.bytes(48, "td report MROWNERCONFIG");
        rtmr0 = r.bytes(48, "td report RTMR0");
        rtmr1 = r.bytes(48, "td report RTMR1");
        rtmr2 = r.bytes(48, "td report RTMR2");
        rtmr3 = r.bytes(48, "td report RTMR3");
        reportData = r.bytes(64, "td report REPORTDATA");
        teeTcbSvn2 = v15 ? r.bytes(16, "td report TEE_TCB_SVN2") : null;
        mrServiceTd = v15 ? r.bytes(48, "td report MRSERVICETD") : null;
    }

    static TdReport parse(ByteReader r, boolean v15) {
        return new TdReport(r, v15);
    }

    /** True for the TDX 1.5 layout (quote v5, body type 3). */
    public boolean isV15() {
        return teeTcbSvn2 != null;
    }

    public byte[] teeTcbSvn() {
        return teeTcbSvn.clone();
    }

    public byte[] mrSeam() {
        return mrSeam.clone();
    }

    public byte[] mrSignerSeam() {
        return mrSignerSeam.clone();
    }

    public byte[] seamAttributes() {
        return seamAttributes.clone();
    }

    public byte[] tdAttributes() {
        return tdAttributes.clone();
    }

    public byte[] xfam() {
        return xfam.clone();
    }

    public byte[] mrTd() {
        return mrTd.clone();
    }

    public byte[] mrConfigId() {
        return mrConfigId.clone();
    }

    public byte[] mrOwner() {
        return mrOwner.clone();
    }

    public byte[] mrOwnerConfig() {
        return mrOwnerConfig.clone();
    }

    public byte[] rtmr0() {
        return rtmr0.clone();
    }

    public byte[] rtmr1() {
        return rtmr1.clone();
    }

    public byte[] rtmr2() {
        return rtmr2.clone();
    }

    public byte[] rtmr3() {
        return rtmr3.clone();
    }

    public byte[] reportData() {
        return reportData.clone();
    }

    /** Null for a TD report 1.0. */
    public byte[] teeTcbSvn2() {
        return teeTcbSvn2 == null ? null : teeTcbSvn2.clone();
    }

    /** Null for a TD report 1.0. */
    public byte[] mrServiceTd() {
        return mrServiceTd == null ? null : mrServiceTd.clone();
    }
}
