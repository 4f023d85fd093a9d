package com.statefulcvm.delegates.attestation;

import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.delegates.support.ReplicaSetObserver;
import com.statefulcvm.delegates.support.ReplicaSets;
import com.statefulcvm.delegates.support.SlotEnvs;
import com.statefulcvm.delegates.support.SlotReader;
import com.statefulcvm.delegates.support.SlotStep;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.admission.AdmittedIdentities;
import com.statefulcvm.fleet.admission.FenceRegistry;
import com.statefulcvm.fleet.admission.RefusalRegistry;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.junit.jupiter.api.Test;
import org.mockito.InOrder;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Optional;

import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyBoolean;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.inOrder;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

/**
 * An attestation writes its slot's instance row before its env row. A rollout's step records the instance (its
 * probe) before it attests in the same transaction; an attestation that took the env row first and then waited for
 * the instance row held what the rollout's attestation waited for: the monitor's re-attestation of the slot and the
 * rollout's deadlocked until the database's lock timeout, and with a job lock as short, round after round
 * (SingleNodeRestartIT, once in a CI run). Taken in the same order, the second waits for the first and goes on.
 */
class AttestationWriteOrderTest {

    @Test
    void theInstanceRowIsWrittenBeforeTheEnvRow() {
        ReplicaSetSpec spec = new ReplicaSetSpec();
        spec.setName("quorum");
        spec.setReplicas(5);
        spec.getAttestation().setRequired(false);
        CvmInfo cvm = new CvmInfo("cvm_q4", "quorum-4", "a".repeat(40), "uuid-4", "i-4", "running", false, null, "hash",
                null, null, null, null, null, null, null, null, null, null, null, null);
        SlotReader slots = mock(SlotReader.class);
        when(slots.read(any())).thenReturn(new SlotStep(spec, "quorum-4", cvm));
        ReplicaSets replicaSets = mock(ReplicaSets.class);
        when(replicaSets.ordinalOf(spec, "quorum-4")).thenReturn(4);
        when(replicaSets.appId(spec)).thenReturn("app");
        FenceRegistry fences = mock(FenceRegistry.class);
        when(fences.fence("quorum", 4)).thenReturn(Optional.empty());
        ReplicaSetObserver observer = mock(ReplicaSetObserver.class);
        SlotEnvs envs = mock(SlotEnvs.class);
        when(envs.check(any(), anyString(), anyInt(), any())).thenReturn("env: as recorded");
        DelegateExecution execution = mock(DelegateExecution.class);
        when(execution.getProcessInstance()).thenReturn(execution);
        when(execution.getProcessDefinitionId()).thenReturn("admit-instance:1:x");
        when(execution.getProcessInstanceId()).thenReturn("pid");

        new AttestInstance(slots, replicaSets, mock(EvidenceJudge.class), observer, fences, mock(RefusalRegistry.class),
                mock(AdmittedIdentities.class), mock(ExpectedComposeHashes.class), envs,
                Clock.fixed(Instant.parse("2026-12-03T12:00:00Z"), ZoneOffset.UTC)).execute(execution);

        InOrder order = inOrder(observer, envs, execution);
        order.verify(observer).recordAttestation(eq(spec), eq("quorum-4"), anyBoolean(), any());
        order.verify(envs).check(spec, "app", 4, cvm);
        order.verify(execution).setVariable(eq(com.statefulcvm.delegates.procedure.AttestationVariables.ATTESTATION_CHECKS),
                eq("attestation not required by the set's policy\nenv: as recorded"));
    }
}
