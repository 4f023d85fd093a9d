package com.statefulcvm.connectors.phala;

import java.time.Duration;
import java.util.Objects;

/**
 * How the client retries what {@link PhalaApiException#isRetryable()} calls transient: short and bounded, because the
 * engine owns the long retries (a failed job is retried by Camunda, durable and visible). A server's Retry-After is
 * honoured: never retried sooner; one longer than {@code maxBackoff} ends the client's attempts.
 *
 * @param maxAttempts    attempts in total, the first one included; 1 disables retries
 * @param initialBackoff wait before the first retry; doubles on each further retry
 * @param maxBackoff     cap of every backoff, and the longest Retry-After the client waits itself
 */
public record RetrySettings(int maxAttempts, Duration initialBackoff, Duration maxBackoff) {

    public static final int DEFAULT_MAX_ATTEMPTS = 3;
    public static final Duration DEFAULT_INITIAL_BACKOFF = Duration.ofMillis(500);
    public static final Duration DEFAULT_MAX_BACKOFF = Duration.ofSeconds(5);

    public RetrySettings {
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("maxAttempts must be at least 1, was " + maxAttempts);
        }
        initialBackoff = nonNegative(initialBackoff, DEFAULT_INITIAL_BACKOFF, "initialBackoff");
        maxBackoff = nonNegative(maxBackoff, DEFAULT_MAX_BACKOFF, "maxBackoff");
    }

    public static RetrySettings defaults() {
        return new RetrySettings(DEFAULT_MAX_ATTEMPTS, DEFAULT_INITIAL_BACKOFF, DEFAULT_MAX_BACKOFF);
    }

    public static RetrySettings none() {
        return new RetrySettings(1, Duration.ZERO, Duration.ZERO);
    }

    /** Wait before retry number {@code retry} (0 = the first retry): initialBackoff * 2^retry, capped. */
    public Duration backoff(int retry) {
        if (retry < 0) {
            throw new IllegalArgumentException("retry must not be negative");
        }
        // Beyond 2^30 the cap has long been reached; shifting further would overflow.
        long factor = 1L << Math.min(retry, 30);
        long millis = initialBackoff.toMillis();
        long wanted = millis > Long.MAX_VALUE / factor ? Long.MAX_VALUE : millis * factor;
        return cap(Duration.ofMillis(wanted));
    }

    /** Whether a server's Retry-After is short enough for the client to wait it itself. */
    public boolean waitsFor(Duration retryAfter) {
        return retryAfter.compareTo(maxBackoff) <= 0;
    }

    public Duration cap(Duration wait) {
        Objects.requireNonNull(wait, "wait");
        if (wait.isNegative()) {
            return Duration.ZERO;
        }
        return wait.compareTo(maxBackoff) > 0 ? maxBackoff : wait;
    }

    private static Duration nonNegative(Duration value, Duration fallback, String name) {
        if (value == null) {
            return fallback;
        }
        if (value.isNegative()) {
            throw new IllegalArgumentException(name + " must not be negative, was " + value);
        }
        return value;
    }
}
