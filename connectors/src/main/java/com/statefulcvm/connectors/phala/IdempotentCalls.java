package com.statefulcvm.connectors.phala;

/**
 * Which calls change nothing at the service, so that a failure of unknown outcome (a 5xx, a timeout) may be retried
 * by sending them again: every GET, and {@code POST /status/batch}, which only reads (SDK {@code getCvmStatusBatch}).
 * A DELETE is not among them: sent twice it answers 404 the second time, so its caller reads back instead.
 */
final class IdempotentCalls {

    private IdempotentCalls() {
    }

    static boolean isIdempotent(String method, String path) {
        return "GET".equalsIgnoreCase(method) || ("POST".equalsIgnoreCase(method) && "/status/batch".equals(path));
    }
}
