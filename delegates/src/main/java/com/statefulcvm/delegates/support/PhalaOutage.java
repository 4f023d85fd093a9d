package com.statefulcvm.delegates.support;

import com.statefulcvm.connectors.phala.PhalaApiException;

import java.util.Optional;

/**
 * Which failures of a Phala call mean "Phala Cloud is unreachable" rather than "Phala refused": no answer at all
 * (connection refused, timeout), 429 and the 5xx gateway and server errors, as they reach the orchestrator after the
 * client's own short retries. A procedure pauses on these ({@link PhalaCircuit}); every other answer, 4xx included,
 * shows that Phala is there.
 */
public final class PhalaOutage {

    private PhalaOutage() {
    }

    public static boolean isOutage(PhalaApiException e) {
        return switch (e.status()) {
            case PhalaApiException.NO_RESPONSE, 429, 500, 502, 503, 504 -> true;
            default -> false;
        };
    }

    /** The outage in a failure's cause chain, if that is what it is. */
    public static Optional<PhalaApiException> in(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof PhalaApiException api && isOutage(api)) {
                return Optional.of(api);
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return Optional.empty();
    }
}
