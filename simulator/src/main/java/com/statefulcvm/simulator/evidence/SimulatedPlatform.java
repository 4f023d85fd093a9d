package com.statefulcvm.simulator.evidence;

import static com.statefulcvm.simulator.evidence.EvidenceBytes.sha256;
import static com.statefulcvm.simulator.evidence.EvidenceBytes.sha384;
import static com.statefulcvm.simulator.evidence.EvidenceBytes.unhex;
import static com.statefulcvm.simulator.evidence.EvidenceBytes.utf8;

/**
 * The one simulated TDX machine every simulated CVM runs on, and its firmware: the values its PCK certificate, quotes,
 * TCB info and QE identity must agree on. Shaped like a real 5th-generation Xeon (the same field layout and the same
 * kind of values as Intel's), but every value is the simulator's own. Arrays are shared: never modify them.
 */
final class SimulatedPlatform {

    /** Family-model-stepping-platform-custom SKU of the simulated CPU (not a real Intel FMSPC). */
    static final String FMSPC = "90C06F000000";
    static final String PCE_ID = "0000";
    /** The 16 SGX TCB component SVNs (= CPUSVN) and the PCE SVN in the PCK certificate. */
    static final int[] SGX_TCB_COMPONENTS = {3, 3, 2, 2, 4, 1, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0};
    static final int PCE_SVN = 11;
    /** TEE_TCB_SVN: TDX module SVN 6, module major version 1 (identity TDX_01), late microcode 3. */
    static final byte[] TEE_TCB_SVN = unhex("06010300000000000000000000000000");
    /** The TCB levels the simulated PCCS publishes; the platform above is at (or above) the first, UpToDate. */
    static final int[] TCB_LEVEL_SGX_COMPONENTS = {2, 2, 2, 2, 3, 1, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0};
    static final int TCB_LEVEL_PCE_SVN = 11;
    static final int[] TCB_LEVEL_TDX_COMPONENTS = {5, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    static final int TDX_MODULE_ISV_SVN = 4;
    static final String TCB_DATE = "2024-03-13T00:00:00Z";
    static final int TCB_EVALUATION_DATA_NUMBER = 17;

    static final byte[] MR_SEAM = sha384(utf8("stateful-cvm-simulator TDX module 1.5"));
    static final byte[] MR_SIGNER_SEAM = new byte[48];
    static final byte[] SEAM_ATTRIBUTES = new byte[8];
    /** TDATTRIBUTES: not a debug TD, SEPT_VE_DISABLE (bit 28) set, nothing else. */
    static final byte[] TD_ATTRIBUTES = unhex("0000001000000000");
    static final byte[] XFAM = unhex("e702060000000000");

    /** Intel's QE vendor id, as in every quote made by Intel's quoting enclave. */
    static final byte[] QE_VENDOR_ID = unhex("939a7233f79c4ca9940a0db3957f0607");
    static final byte[] QE_MR_SIGNER = sha256(utf8("stateful-cvm-simulator TD quoting enclave signer"));
    static final byte[] QE_MR_ENCLAVE = sha256(utf8("stateful-cvm-simulator TD quoting enclave"));
    static final int QE_ISV_PROD_ID = 2;
    static final int QE_ISV_SVN = 4;
    static final long QE_MISC_SELECT = 0;
    /** Matches the QE identity's attributes 11000000... under mask FBFFFFFFFFFFFFFF0000000000000000. */
    static final byte[] QE_ATTRIBUTES = unhex("1500000000000000e700000000000000");
    /** The QE auth data real quotes carry: bytes 0x00..0x1f. */
    static final byte[] QE_AUTH_DATA = unhex("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f");

    /** The firmware (TDVF) measurement: fixed, as the simulator boots one image. */
    static final byte[] MRTD = sha384(utf8("stateful-cvm-simulator dstack-0.5.3 OVMF"));

    /**
     * A fixed P-256 public key (DER SubjectPublicKeyInfo, hex) that stands for the simulated KMS in every
     * key-provider event. Its private key was discarded: the simulator never derives keys. Pin it in a replica set's
     * {@code attestation.kms-key-ids} to admit simulated CVMs.
     */
    static final String KMS_PUBLIC_KEY = "3059301306072a8648ce3d020106082a8648ce3d0301070342000400aedb9f9afadcf9ad"
            + "b3336dc0850e66bfe95bcc96d222ad17141efd90886c87a900de404493aa42d92ba910dea6c97f5ca50be5a64eb7840d95abc"
            + "29113e9bd";

    private SimulatedPlatform() {
    }

    /** CPUSVN: the SGX TCB component SVNs as 16 bytes. */
    static byte[] cpuSvn() {
        byte[] out = new byte[16];
        for (int i = 0; i < 16; i++) {
            out[i] = (byte) SGX_TCB_COMPONENTS[i];
        }
        return out;
    }
}
