package com.statefulcvm.delegates.admission;

import com.statefulcvm.delegates.procedure.RefusalVariables;
import com.statefulcvm.delegates.rollout.RequireRefusalDecision;
import com.statefulcvm.delegates.support.ReplicaSets;
import com.statefulcvm.fleet.PlatformMeasurements;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.admission.PinnedPlatform;
import com.statefulcvm.fleet.admission.PinnedPlatforms;
import com.statefulcvm.fleet.admission.Refusal;
import com.statefulcvm.fleet.admission.RefusalRegistry;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.camunda.bpm.engine.delegate.DelegateTask;
import org.camunda.bpm.engine.impl.form.validator.FormFieldValidationException;
import org.junit.jupiter.api.Test;
import org.mockito.ArgumentCaptor;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.contains;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

/**
 * The approver's "pin": the platform a refused instance's evidence showed is pinned for the set with the approver's
 * name, and that refusal is forgotten so that the monitor attests it again; a refusal that showed no platform stands,
 * and a "pin" when none of the refusals showed one is refused at the task.
 */
class PinRefusedPlatformsTest {

    private static final Instant NOW = Instant.parse("2026-12-02T03:10:00Z");
    private static final String NEW_PLATFORM = new PlatformMeasurements(null, "ab".repeat(48), "cd".repeat(48), "ef".repeat(48),
            "01".repeat(48)).full();

    private final ReplicaSets replicaSets = mock(ReplicaSets.class);
    private final RefusalRegistry refusals = mock(RefusalRegistry.class);
    private final PinnedPlatforms pins = mock(PinnedPlatforms.class);
    private final ReplicaSetSpec spec = new ReplicaSetSpec();

    private final Refusal platformChanged = new Refusal("db", 1, "i-1", "ADMISSION_REJECTED",
            "ADMISSION_REJECTED: platform (MRTD abab…) is none of the set's platforms", NEW_PLATFORM, NOW, "admit-instance 7");
    private final Refusal tampered = new Refusal("db", 2, "i-2", "QUOTE_INVALID", "QUOTE_INVALID: failed quote.signature", null,
            NOW, "admit-instance 8");

    PinRefusedPlatformsTest() {
        spec.setName("db");
        spec.setReplicas(3);
        when(replicaSets.spec("db")).thenReturn(spec);
    }

    @Test
    void theShownPlatformIsPinnedByTheApproverAndOnlyItsRefusalIsForgotten() {
        when(refusals.refusals("db")).thenReturn(List.of(platformChanged, tampered));
        DelegateExecution execution = mock(DelegateExecution.class);
        when(execution.getVariable(RefusalVariables.REPLICA_SET)).thenReturn("db");
        when(execution.getVariable(RefusalVariables.DECIDED_BY)).thenReturn("alice");
        new PinRefusedPlatforms(replicaSets, refusals, pins, Clock.fixed(NOW, ZoneOffset.UTC)).execute(execution);

        ArgumentCaptor<PinnedPlatform> pinned = ArgumentCaptor.forClass(PinnedPlatform.class);
        verify(pins).pin(pinned.capture());
        assertThat(pinned.getValue().pinnedBy()).isEqualTo("alice");
        assertThat(pinned.getValue().platform().full()).isEqualTo(NEW_PLATFORM);
        assertThat(pinned.getValue().reason()).startsWith("db-1: ADMISSION_REJECTED: platform");
        verify(refusals).lift("db", 1);
        verify(refusals, never()).lift("db", 2);
        verify(execution).setVariable(org.mockito.ArgumentMatchers.eq(RefusalVariables.PINNED_BY_DECISION),
                contains("db-2: its evidence showed no platform; still refused"));
    }

    @Test
    void aPinWhenNoRefusalShowedAPlatformIsRefusedAtTheTask() {
        when(refusals.refusals("db")).thenReturn(List.of(tampered));
        DelegateTask task = mock(DelegateTask.class);
        when(task.getVariable(RefusalVariables.DECISION)).thenReturn("pin");
        when(task.getVariable(RefusalVariables.REPLICA_SET)).thenReturn("db");
        assertThatThrownBy(() -> new RequireRefusalDecision(refusals).notify(task))
                .isInstanceOf(FormFieldValidationException.class)
                .hasMessageContaining("pin needs a refused instance whose evidence showed a platform");
        verify(task, never()).setVariableLocal(anyString(), org.mockito.ArgumentMatchers.any());
    }

    @Test
    void theFullFormOfAPlatformReadsBack() {
        PlatformMeasurements read = PlatformMeasurements.parseFull(NEW_PLATFORM, "label").orElseThrow();
        assertThat(read.getName()).isEqualTo("label");
        assertThat(read.full()).isEqualTo(NEW_PLATFORM);
        assertThat(PlatformMeasurements.parseFull("MRTD zz", null)).isEmpty();
        assertThat(PlatformMeasurements.parseFull(null, null)).isEmpty();
    }
}
