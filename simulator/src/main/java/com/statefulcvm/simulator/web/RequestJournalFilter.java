package com.statefulcvm.simulator.web;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Records each call to {@code /simulator/api/v1/**} in the {@link RequestJournal} before anything else may answer it
 * (a fault, a wrong key): the body is read once here and replayed to the rest of the chain.
 */
public class RequestJournalFilter extends OncePerRequestFilter {

    private static final int MAX_BODY = 1024 * 1024;

    private final RequestJournal journal;

    public RequestJournalFilter(RequestJournal journal) {
        this.journal = journal;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        byte[] body = request.getInputStream().readNBytes(MAX_BODY);
        HttpServletRequest replay = new Replay(request, body);
        try {
            chain.doFilter(replay, response);
        } finally {
            String path = request.getRequestURI().substring(request.getContextPath().length());
            if (path.startsWith(ApiPaths.API)) {
                path = path.substring(ApiPaths.API.length());
            }
            String key = request.getHeader("X-API-Key");
            journal.record(new RequestJournal.Entry(0, request.getMethod(), path, request.getQueryString(),
                    request.getContentType(), request.getHeader("X-Phala-Version"), request.getHeader("X-Compose-Hash"),
                    request.getHeader("X-Transaction-Hash"), request.getHeader("X-Prepare-Only"),
                    key != null && !key.isBlank(), request.getHeader("User-Agent"),
                    body.length == 0 ? null : new String(body, StandardCharsets.UTF_8), response.getStatus()));
        }
    }

    private static final class Replay extends HttpServletRequestWrapper {

        private final byte[] body;

        Replay(HttpServletRequest request, byte[] body) {
            super(request);
            this.body = body;
        }

        @Override
        public ServletInputStream getInputStream() {
            ByteArrayInputStream in = new ByteArrayInputStream(body);
            return new ServletInputStream() {
                @Override
                public boolean isFinished() {
                    return in.available() == 0;
                }

                @Override
                public boolean isReady() {
                    return true;
                }

                @Override
                public void setReadListener(ReadListener listener) {
                    throw new UnsupportedOperationException("synchronous reads only");
                }

                @Override
                public int read() {
                    return in.read();
                }

                @Override
                public int read(byte[] b, int off, int len) {
                    return in.read(b, off, len);
                }
            };
        }

        @Override
        public java.io.BufferedReader getReader() {
            return new java.io.BufferedReader(new java.io.InputStreamReader(getInputStream(), StandardCharsets.UTF_8));
        }

        @Override
        public int getContentLength() {
            return body.length;
        }

        @Override
        public long getContentLengthLong() {
            return body.length;
        }
    }
}
