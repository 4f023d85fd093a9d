package com.statefulcvm.web.api;

import com.statefulcvm.delegates.lightsout.LightsOutChecks;
import org.camunda.bpm.engine.ProcessEngine;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpStatus;

import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

/**
 * A lights-out recovery holds every slot of its set against the health monitor's heals and re-attestations while it
 * runs; a re-attestation already running when it is asked for would still fence, and stop, an instance the recovery
 * is starting, so the start is refused until it has ended, as for a running heal.
 */
class LightsOutStartChecksTest {

    private final RunningProcesses running = mock(RunningProcesses.class);
    private final LightsOutStartChecks checks = new LightsOutStartChecks(mock(LightsOutChecks.class), running, mock(ProcessEngine.class));

    @Test
    void aRunningReattestationOfAnInstanceOfTheSetRefusesTheStartNamingIt() {
        when(running.admissionOf("db")).thenReturn(Optional.of("admit-42"));

        ApiProblem refused = catchThrowableOfType(ApiProblem.class, () -> checks.requireNothingRunning("db"));

        assertThat(refused.status()).isEqualTo(HttpStatus.CONFLICT);
        assertThat(refused.getMessage())
                .isEqualTo("re-attestation admit-42 of an instance of replica set 'db' is running; recover once it has ended");
        assertThat(refused.detail()).isEqualTo(Map.of("processInstanceId", "admit-42"));
    }

    @Test
    void aRunningHealIsStillRefusedFirstAndNothingRunningLetsItStart() {
        when(running.healOf("db")).thenReturn(Optional.of("heal-7"));
        when(running.admissionOf("db")).thenReturn(Optional.of("admit-42"));
        assertThat(catchThrowableOfType(ApiProblem.class, () -> checks.requireNothingRunning("db")).getMessage())
                .startsWith("heal heal-7 of an instance of replica set 'db' is running");

        when(running.healOf("db")).thenReturn(Optional.empty());
        when(running.admissionOf("db")).thenReturn(Optional.empty());
        assertThatCode(() -> checks.requireNothingRunning("db")).doesNotThrowAnyException();
    }
}
