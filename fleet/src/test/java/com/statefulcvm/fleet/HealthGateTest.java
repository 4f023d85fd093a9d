package com.statefulcvm.fleet;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

class HealthGateTest {

    private final Instant t0 = Instant.parse("2026-11-21T10:00:00Z");

    @Test
    void passesAfterThresholdConsecutiveSuccessesAndMinReady() {
        HealthGate gate = new HealthGate(2, Duration.ofSeconds(30));
        HealthGate.State s = gate.observe(HealthGate.State.INITIAL, true, t0);
        assertThat(gate.passed(s, t0)).isFalse();
        s = gate.observe(s, true, t0.plusSeconds(10));
        assertThat(gate.passed(s, t0.plusSeconds(10))).as("min ready not yet over").isFalse();
        s = gate.observe(s, true, t0.plusSeconds(30));
        assertThat(gate.passed(s, t0.plusSeconds(30))).isTrue();
    }

    @Test
    void aFailureStartsTheCountAgain() {
        HealthGate gate = new HealthGate(2, Duration.ZERO);
        HealthGate.State s = gate.observe(HealthGate.State.INITIAL, true, t0);
        s = gate.observe(s, false, t0.plusSeconds(1));
        assertThat(s).isEqualTo(HealthGate.State.INITIAL);
        s = gate.observe(s, true, t0.plusSeconds(2));
        assertThat(gate.passed(s, t0.plusSeconds(2))).isFalse();
        s = gate.observe(s, true, t0.plusSeconds(3));
        assertThat(gate.passed(s, t0.plusSeconds(3))).isTrue();
        assertThat(s.healthySince()).isEqualTo(t0.plusSeconds(2));
    }

    @Test
    void theNextProbeComesAsSoonAsMinReadyCanPassOnceTheStreakIsLongEnough() {
        HealthGate gate = new HealthGate(1, Duration.ofSeconds(1));
        Duration interval = Duration.ofSeconds(10);
        HealthGate.State s = gate.observe(HealthGate.State.INITIAL, true, t0);
        assertThat(gate.nextProbe(s, t0, interval)).as("min ready, not the interval").isEqualTo(t0.plusSeconds(1));
        HealthGate.State then = gate.observe(s, true, t0.plusSeconds(1));
        assertThat(gate.passed(then, t0.plusSeconds(1))).isTrue();
    }

    @Test
    void theIntervalStandsWhileTheStreakIsShortOrMinReadyIsLonger() {
        Duration interval = Duration.ofSeconds(10);
        HealthGate two = new HealthGate(2, Duration.ofSeconds(1));
        HealthGate.State first = two.observe(HealthGate.State.INITIAL, true, t0);
        assertThat(two.nextProbe(first, t0, interval)).as("the second good check comes at its interval").isEqualTo(t0.plusSeconds(10));
        HealthGate slow = new HealthGate(1, Duration.ofSeconds(30));
        HealthGate.State s = slow.observe(HealthGate.State.INITIAL, true, t0);
        assertThat(slow.nextProbe(s, t0, interval)).isEqualTo(t0.plusSeconds(10));
        assertThat(slow.nextProbe(HealthGate.State.INITIAL, t0, interval)).as("after a failure").isEqualTo(t0.plusSeconds(10));
    }

    @Test
    void takesMinReadFromThePolicyItIsGivenNotTheSetsOwn() {
        ReplicaSetSpec set = new ReplicaSetSpec();
        set.getHealthCheck().setHealthyThreshold(1);
        set.getUpdatePolicy().setMinReadySeconds(0);
        UpdatePolicy rollout = set.getUpdatePolicy().copy();
        rollout.setMinReadySeconds(20);

        HealthGate gate = HealthGate.of(set, rollout);
        HealthGate.State s = gate.observe(HealthGate.State.INITIAL, true, t0);

        assertThat(gate.passed(s, t0.plusSeconds(19))).as("the rollout's 20 s, not the file's 0").isFalse();
        assertThat(gate.passed(s, t0.plusSeconds(20))).isTrue();
    }
}
