package com.statefulcvm.fleet;

import java.time.Duration;
import java.time.Instant;

/**
 * An instance passes when its probe succeeded {@code healthyThreshold} times in a row and it has stayed healthy for
 * {@code minReadySeconds} since the first of those; any failure starts the count again.
 */
public final class HealthGate {

    private final int healthyThreshold;
    private final Duration minReady;

    public HealthGate(int healthyThreshold, Duration minReady) {
        if (healthyThreshold < 1) {
            throw new IllegalArgumentException("healthyThreshold must be at least 1");
        }
        this.healthyThreshold = healthyThreshold;
        this.minReady = minReady;
    }

    /**
     * The gate of one step: the set's health check with the min ready of the policy the step runs under (a rollout's
     * effective policy, its override applied; never the file's own when the rollout overrides it).
     */
    public static HealthGate of(ReplicaSetSpec set, UpdatePolicy policy) {
        return new HealthGate(set.getHealthCheck().getHealthyThreshold(), Duration.ofSeconds(policy.getMinReadySeconds()));
    }

    public State observe(State state, boolean healthy, Instant now) {
        if (!healthy) {
            return State.INITIAL;
        }
        return new State(state.healthyStreak() + 1, state.healthySince() == null ? now : state.healthySince());
    }

    public boolean passed(State state, Instant now) {
        return state.healthyStreak() >= healthyThreshold
                && state.healthySince() != null
                && !Duration.between(state.healthySince(), now).minus(minReady).isNegative();
    }

    /**
     * When to probe next: one interval after this probe, or as soon as min ready has run when the healthy streak is
     * already long enough, whichever is sooner. Waiting a whole interval for a gate that could pass before it was the
     * largest part of a rollout step where the health check's interval is longer than min ready (10 s against 1 s in
     * the capacity benchmark).
     */
    public Instant nextProbe(State state, Instant now, Duration interval) {
        Instant afterInterval = now.plus(interval);
        if (state.healthyStreak() >= healthyThreshold && state.healthySince() != null) {
            Instant ready = state.healthySince().plus(minReady);
            if (ready.isAfter(now) && ready.isBefore(afterInterval)) {
                return ready;
            }
        }
        return afterInterval;
    }

    /** What the gate remembers between probes. */
    public record State(int healthyStreak, Instant healthySince) {
        public static final State INITIAL = new State(0, null);
    }
}
