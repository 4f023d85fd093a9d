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
}
