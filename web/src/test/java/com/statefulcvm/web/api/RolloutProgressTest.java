package com.statefulcvm.web.api;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class RolloutProgressTest {

    private static final Instant START = Instant.parse("2026-12-02T10:00:00Z");
    private static final List<List<String>> WAVES = List.of(List.of("db-2"), List.of("db-1"), List.of("db-0"));

    @Test
    void aRunningRolloutIsAtTheFirstWaveNotDoneAndSaysSo() {
        RolloutProgress p = RolloutProgress.of(WAVES, List.of("db-2"), true, START, START.plusSeconds(80), false, true);
        assertThat(p.waveStates()).containsExactly("done", "running", "pending");
        assertThat(p.currentWave()).isEqualTo(2);
        assertThat(p.summary()).isEqualTo("wave 2 of 3, 1 of 3 instances updated, 1 min 20 s, pause requested (takes effect at the wave's end)");
    }

    @Test
    void anEndedRolloutShowsTheWavesItNeverFinishedAsStopped() {
        RolloutProgress p = RolloutProgress.of(List.of(List.of("db-2", "db-1"), List.of("db-0")), List.of("db-2", "db-1"), false,
                START, START.plusSeconds(5), false, false);
        assertThat(p.waveStates()).containsExactly("done", "stopped");
        assertThat(p.currentWave()).isNull();
        assertThat(p.summary()).isEqualTo("1 of 2 waves done, 2 of 3 instances updated, 5 s");
    }
}
