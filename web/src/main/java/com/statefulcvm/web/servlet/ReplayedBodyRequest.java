package com.statefulcvm.web.servlet;

import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;

import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.SequenceInputStream;
import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;

/**
 * A request whose body a filter has read (to learn something from it, or to change it), handed on so that the next
 * in the chain reads a body again: the same bytes, or others in their place.
 */
public final class ReplayedBodyRequest extends HttpServletRequestWrapper {

    private final Supplier<InputStream> body;
    /** The new body's length; -1 where the request's own still holds (its unread rest follows what was read). */
    private final long length;

    private ReplayedBodyRequest(HttpServletRequest request, Supplier<InputStream> body, long length) {
        super(request);
        this.body = body;
        this.length = length;
    }

    /** The request with {@code body} in place of its own. */
    public static ReplayedBodyRequest withBody(HttpServletRequest request, byte[] body) {
        return new ReplayedBodyRequest(request, () -> new ByteArrayInputStream(body), body.length);
    }

    /** The request whose first bytes were read: {@code read}, then the rest of its own body. */
    public static ReplayedBodyRequest afterReading(HttpServletRequest request, byte[] read) throws IOException {
        InputStream whole = new SequenceInputStream(new ByteArrayInputStream(read), request.getInputStream());
        return new ReplayedBodyRequest(request, () -> whole, -1);
    }

    @Override
    public ServletInputStream getInputStream() {
        InputStream in = body.get();
        return new ServletInputStream() {
            private boolean finished;

            @Override
            public int read() throws IOException {
                int b = in.read();
                finished = b < 0;
                return b;
            }

            @Override
            public int read(byte[] buffer, int off, int len) throws IOException {
                int n = in.read(buffer, off, len);
                finished = n < 0;
                return n;
            }

            @Override
            public boolean isFinished() {
                return finished;
            }

            @Override
            public boolean isReady() {
                return true;
            }

            @Override
            public void setReadListener(ReadListener listener) {
                throw new UnsupportedOperationException("synchronous reads only");
            }
        };
    }

    @Override
    public BufferedReader getReader() {
        return new BufferedReader(new InputStreamReader(getInputStream(), StandardCharsets.UTF_8));
    }

    @Override
    public int getContentLength() {
        return length < 0 ? super.getContentLength() : (int) length;
    }

    @Override
    public long getContentLengthLong() {
        return length < 0 ? super.getContentLengthLong() : length;
    }
}
