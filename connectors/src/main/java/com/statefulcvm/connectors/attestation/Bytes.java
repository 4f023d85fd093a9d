package com.statefulcvm.connectors.attestation;

import java.util.HexFormat;

/** Hex and little-endian helpers shared by the parsers; hex out is always lower-case without prefix. */
final class Bytes {

    private static final HexFormat HEX = HexFormat.of();

    private Bytes() {
    }

    static String hex(byte[] bytes) {
        return bytes == null ? null : HEX.formatHex(bytes);
    }

    /** Accepts upper or lower case and an optional 0x prefix, because PCS, dstack and operators all differ. */
    static byte[] unhex(String hex) {
        String s = hex.strip();
        if (s.startsWith("0x") || s.startsWith("0X")) {
            s = s.substring(2);
        }
        if ((s.length() & 1) != 0) {
            throw new IllegalArgumentException("odd number of hex digits");
        }
        return HEX.parseHex(s);
    }

    static boolean isZero(byte[] bytes) {
        for (byte b : bytes) {
            if (b != 0) {
                return false;
            }
        }
        return true;
    }

    static byte[] le32(int value) {
        return new byte[] {(byte) value, (byte) (value >>> 8), (byte) (value >>> 16), (byte) (value >>> 24)};
    }
}
