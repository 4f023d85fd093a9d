package com.statefulcvm.delegates.support;

import java.time.Duration;

/**
 * @param inFlightGuard how long an intent whose call has not been seen to end may still be in flight somewhere (a node
 *                      that lost its job's lock but still waits for Phala's answer): longer than any call of the Phala
 *                      client with its own retries. Until then, a step that finds no sign of the effect at Phala waits
 *                      instead of asking again. {@code orchestrator.effects.in-flight-guard}
 */
public record EffectSettings(Duration inFlightGuard) {

    public static final Duration DEFAULT_IN_FLIGHT_GUARD = Duration.ofMinutes(2);

    public EffectSettings {
        if (inFlightGuard == null || inFlightGuard.isNegative()) {
            inFlightGuard = DEFAULT_IN_FLIGHT_GUARD;
        }
    }
}
