package com.statefulcvm.delegates.support;

import java.time.Duration;

/**
 * Deployment-wide timings of the rollout procedure (policy timings live in the fleet file).
 *
 * @param cvmPollInterval how often a procedure asks Phala whether an updating CVM has settled (for a rollout step: how
 *                        often the step waker looks)
 * @param wakeFallback    a rollout step that the step waker did not wake polls or probes anyway this long after it
 *                        would have been woken
 */
public record RolloutSettings(Duration cvmPollInterval, Duration wakeFallback) {

    public RolloutSettings(Duration cvmPollInterval) {
        this(cvmPollInterval, Duration.ofSeconds(30));
    }

    public String cvmPollIntervalIso() {
        return cvmPollInterval.toString();
    }

    /** The fallback of a rollout step's wait for its CVM: never shorter than one poll interval. */
    public String cvmWaitFallbackIso() {
        return (wakeFallback.compareTo(cvmPollInterval) < 0 ? cvmPollInterval : wakeFallback).toString();
    }
}
