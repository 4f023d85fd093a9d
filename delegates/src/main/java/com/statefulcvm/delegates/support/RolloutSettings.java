package com.statefulcvm.delegates.support;

import java.time.Duration;

/** Deployment-wide timings of the rollout procedure (policy timings live in the fleet file). */
public record RolloutSettings(Duration cvmPollInterval) {

    public String cvmPollIntervalIso() {
        return cvmPollInterval.toString();
    }
}
