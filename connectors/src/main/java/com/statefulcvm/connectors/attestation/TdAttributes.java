package com.statefulcvm.connectors.attestation;

/**
 * TDATTRIBUTES policy (Intel TDX module ABI): a debug TD (any TUD bit) can be read by the host, and a TD without
 * SEPT_VE_DISABLE can be fed #VE page faults, so neither proves anything; reserved bits must be clear. This is the
 * same rule dcap-qvl applies, so both verifiers accept and reject alike.
 */
final class TdAttributes {

    private TdAttributes() {
    }

    static Check check(byte[] attributes) {
        int tud = attributes[0] & 0xff;
        if (tud != 0) {
            return Check.fail(CheckNames.TD_ATTRIBUTES, "debug TD (TUD bits " + Integer.toHexString(tud) + ")");
        }
        int secReserved = ((attributes[3] & 0x0f) << 16) | ((attributes[2] & 0xff) << 8) | (attributes[1] & 0xff);
        boolean reservedBit29 = (attributes[3] & 0x20) != 0;
        long otherReserved = ((long) (attributes[7] & 0x7f) << 24) | ((attributes[6] & 0xff) << 16)
                | ((attributes[5] & 0xff) << 8) | (attributes[4] & 0xff);
        if (secReserved != 0 || reservedBit29 || otherReserved != 0) {
            return Check.fail(CheckNames.TD_ATTRIBUTES, "reserved TD attribute bits are set: "
                    + Bytes.hex(attributes));
        }
        if ((attributes[3] & 0x10) == 0) {
            return Check.fail(CheckNames.TD_ATTRIBUTES, "SEPT_VE_DISABLE is not set");
        }
        return Check.pass(CheckNames.TD_ATTRIBUTES, "production TD, SEPT_VE_DISABLE set");
    }
}
