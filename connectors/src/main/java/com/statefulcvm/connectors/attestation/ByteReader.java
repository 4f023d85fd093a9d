package com.statefulcvm.connectors.attestation;

import java.util.Arrays;

/** A bounds-checked little-endian cursor: every overrun becomes a {@link QuoteFormatException} naming the field. */
final class ByteReader {

    private final byte[] data;
    private final int end;
    private int pos;

    ByteReader(byte[] data) {
        this(data, 0, data.length);
    }

    private ByteReader(byte[] data, int start, int end) {
        this.data = data;
        this.pos = start;
        this.end = end;
    }

    int position() {
        return pos;
    }

    int remaining() {
        return end - pos;
    }

    private void need(int n, String field) {
        if (n < 0 || n > end - pos) {
            throw new QuoteFormatException(field + ": needs " + n + " bytes at offset " + pos + ", only "
                    + (end - pos) + " left");
        }
    }

    int u16(String field) {
        need(2, field);
        int v = (data[pos] & 0xff) | (data[pos + 1] & 0xff) << 8;
        pos += 2;
        return v;
    }

    long u32(String field) {
        need(4, field);
        long v = (data[pos] & 0xffL) | (data[pos + 1] & 0xffL) << 8 | (data[pos + 2] & 0xffL) << 16
                | (data[pos + 3] & 0xffL) << 24;
        pos += 4;
        return v;
    }

    byte[] bytes(int n, String field) {
        need(n, field);
        byte[] out = Arrays.copyOfRange(data, pos, pos + n);
        pos += n;
        return out;
    }

    byte[] bytes(long n, String field) {
        if (n > Integer.MAX_VALUE) {
            throw new QuoteFormatException(field + ": length " + n + " is not plausible");
        }
        return bytes((int) n, field);
    }

    /** A reader over the next {@code n} bytes; this reader moves past them. */
    ByteReader slice(long n, String field) {
        if (n > Integer.MAX_VALUE) {
            throw new QuoteFormatException(field + ": length " + n + " is not plausible");
        }
        need((int) n, field);
        ByteReader sub = new ByteReader(data, pos, pos + (int) n);
        pos += (int) n;
        return sub;
    }
}
