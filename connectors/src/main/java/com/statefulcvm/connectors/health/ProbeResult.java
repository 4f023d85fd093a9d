package com.statefulcvm.connectors.health;

import java.time.Duration;

/**
 * Outcome of one health probe.
 *
 * @param statusCode the HTTP status, or {@link #NO_ANSWER} when nothing answered
 * @param detail     why, in words, for logs and process variables
 */
public record ProbeResult(boolean healthy, int statusCode, String detail, Duration latency) {

    public static final int NO_ANSWER = 0;

    public boolean answered() {
        return statusCode != NO_ANSWER;
    }
}
