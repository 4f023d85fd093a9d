package com.statefulcvm.connectors.attestation;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The few DER shapes Intel's SGX certificate extension uses (SEQUENCE, OID, INTEGER, ENUMERATED, OCTET STRING).
 * The JDK parses the certificate; it exposes a custom extension only as bytes, so this reads them.
 */
final class Der {

    static final int SEQUENCE = 0x30;
    static final int OCTET_STRING = 0x04;
    static final int OID = 0x06;
    static final int INTEGER = 0x02;
    static final int ENUMERATED = 0x0a;

    /** One TLV: the tag and its content bytes. */
    record Tlv(int tag, byte[] content) {

        List<Tlv> children() {
            return Der.readAll(content);
        }

        String oid() {
            expect(OID);
            StringBuilder out = new StringBuilder();
            long value = 0;
            boolean first = true;
            for (byte b : content) {
                value = (value << 7) | (b & 0x7f);
                if ((b & 0x80) == 0) {
                    if (first) {
                        long head = Math.min(value / 40, 2);
                        out.append(head).append('.').append(value - head * 40);
                        first = false;
                    } else {
                        out.append('.').append(value);
                    }
                    value = 0;
                }
            }
            return out.toString();
        }

        int intValue() {
            if (tag != INTEGER && tag != ENUMERATED) {
                throw new IllegalArgumentException("DER: expected INTEGER, found tag " + tag);
            }
            return new BigInteger(content).intValueExact();
        }

        byte[] octets() {
            expect(OCTET_STRING);
            return content.clone();
        }

        private void expect(int expected) {
            if (tag != expected) {
                throw new IllegalArgumentException("DER: expected tag " + expected + ", found " + tag);
            }
        }
    }

    private Der() {
    }

    static Tlv read(byte[] der) {
        List<Tlv> all = readAll(der);
        if (all.size() != 1) {
            throw new IllegalArgumentException("DER: expected one element, found " + all.size());
        }
        return all.get(0);
    }

    static List<Tlv> readAll(byte[] der) {
        List<Tlv> out = new ArrayList<>();
        int pos = 0;
        while (pos < der.length) {
            int tag = der[pos++] & 0xff;
            if (pos >= der.length) {
                throw new IllegalArgumentException("DER: truncated length");
            }
            int len = der[pos++] & 0xff;
            if (len > 0x7f) {
                int count = len & 0x7f;
                if (count == 0 || count > 3 || pos + count > der.length) {
                    throw new IllegalArgumentException("DER: unsupported length encoding");
                }
                len = 0;
                for (int i = 0; i < count; i++) {
                    len = (len << 8) | (der[pos++] & 0xff);
                }
            }
            if (len > der.length - pos) {
                throw new IllegalArgumentException("DER: element overruns its container");
            }
            out.add(new Tlv(tag, Arrays.copyOfRange(der, pos, pos + len)));
            pos += len;
        }
        return out;
    }
}
