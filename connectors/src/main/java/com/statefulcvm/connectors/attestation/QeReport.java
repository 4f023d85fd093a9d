package com.statefulcvm.connectors.attestation;

/** The Quoting Enclave's SGX report (384 bytes) carried in the quote's certification data. Accessors copy. */
public final class QeReport {

    static final int SIZE = 384;

    final byte[] cpuSvn;
    final long miscSelect;
    final byte[] attributes;
    final byte[] mrEnclave;
    final byte[] mrSigner;
    final int isvProdId;
    final int isvSvn;
    final byte[] reportData;

    private QeReport(ByteReader r) {
        cpuSvn = r.bytes(16, "QE report CPUSVN");
        miscSelect = r.u32("QE report MISCSELECT");
        r.bytes(28, "QE report reserved");
        attributes = r.bytes(16, "QE report ATTRIBUTES");
        mrEnclave = r.bytes(32, "QE report MRENCLAVE");
        r.bytes(32, "QE report reserved");
        mrSigner = r.bytes(32, "QE report MRSIGNER");
        r.bytes(96, "QE report reserved");
        isvProdId = r.u16("QE report ISVPRODID");
        isvSvn = r.u16("QE report ISVSVN");
        r.bytes(60, "QE report reserved");
        reportData = r.bytes(64, "QE report REPORTDATA");
    }

    static QeReport parse(byte[] raw) {
        return new QeReport(new ByteReader(raw));
    }

    public byte[] cpuSvn() {
        return cpuSvn.clone();
    }

    public long miscSelect() {
        return miscSelect;
    }

    public byte[] attributes() {
        return attributes.clone();
    }

    public byte[] mrEnclave() {
        return mrEnclave.clone();
    }

    public byte[] mrSigner() {
        return mrSigner.clone();
    }

    public int isvProdId() {
        return isvProdId;
    }

    public int isvSvn() {
        return isvSvn;
    }

    public byte[] reportData() {
        return reportData.clone();
    }
}
