package com.statefulcvm.web.api.lightsout;

import com.statefulcvm.web.api.RunningProcesses;
import com.statefulcvm.web.api.ApiProblem;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.statefulcvm.delegates.lightsout.LightsOutChecks;
import com.statefulcvm.delegates.support.ReplicaSets;
import org.camunda.bpm.engine.ProcessEngine;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpStatus;

import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.Mockito.CALLS_REAL_METHODS;
import static org.mockito.Mockito.doReturn;
import static org.mockito.Mockito.mock;

/**
 * A lights-out recovery holds every slot of its set against the health monitor's heals and re-attestations while it
 * runs; a re-attestation already running when it is asked for would still fence, and stop, an instance the recovery
 * is starting, so the start is refused until it has ended, as for a running heal.
 */
class LightsOutStartCheckTest {

    /** The 409 rules are RunningProcesses' own; only its engine queries answer as a stand-in does. */
    private final RunningProcesses running = mock(RunningProcesses.class, CALLS_REAL_METHODS);
    private final LightsOutStartCheck checks = new LightsOutStartCheck(mock(ReplicaSets.class), mock(LightsOutChecks.class), running, mock(ProcessEngine.class),
            new ObjectMapper(), mock(OutageNow.class));

    @BeforeEach
    void nothingRunning() {
        doReturn(Optional.empty()).when(running).of(anyString(), anyString());
        doReturn(Optional.empty()).when(running).healOf(anyString());
        doReturn(Optional.empty()).when(running).admissionOf(anyString());
    }

    @Test
    void aRunningReattestationOfAnInstanceOfTheSetRefusesTheStartNamingIt() {
        doReturn(Optional.of("admit-42")).when(running).admissionOf("db");

        ApiProblem refused = catchThrowableOfType(ApiProblem.class, () -> checks.requireNothingRunning("db"));

        assertThat(refused.status()).isEqualTo(HttpStatus.CONFLICT);
        assertThat(refused.getMessage())
                .isEqualTo("re-attestation admit-42 of an instance of replica set 'db' is running; recover once it has ended");
        assertThat(refused.detail()).isEqualTo(Map.of("processInstanceId", "admit-42"));
    }

    @Test
    void aRunningHealIsStillRefusedFirstAndNothingRunningLetsItStart() {
        doReturn(Optional.of("heal-7")).when(running).healOf("db");
        doReturn(Optional.of("admit-42")).when(running).admissionOf("db");
        assertThat(catchThrowableOfType(ApiProblem.class, () -> checks.requireNothingRunning("db")).getMessage())
                .startsWith("heal heal-7 of an instance of replica set 'db' is running");

        doReturn(Optional.empty()).when(running).healOf("db");
        doReturn(Optional.empty()).when(running).admissionOf("db");
        assertThatCode(() -> checks.requireNothingRunning("db")).doesNotThrowAnyException();
    }
}
