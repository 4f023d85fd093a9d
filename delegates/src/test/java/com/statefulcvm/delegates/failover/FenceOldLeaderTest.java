package com.statefulcvm.delegates.failover;

import com.statefulcvm.connectors.phala.PhalaApiException;
import com.statefulcvm.connectors.phala.PhalaCloudClient;
import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.delegates.procedure.FailoverVariables;
import com.statefulcvm.delegates.support.SlotReader;
import com.statefulcvm.fleet.ReplicaSetSpec;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.Optional;

import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;

/**
 * "Fence the old leader: stop its CVM" is polled until the CVM is stopped: it asks for a stop only of a settled CVM
 * that is not stopped, leaves a busy one to settle, and counts a stopped or vanished CVM as fenced, so running it any
 * number of times stops the CVM once per need and never fails on a CVM that stopped meanwhile.
 */
class FenceOldLeaderTest {

    private final SlotReader slots = mock(SlotReader.class);
    private final PhalaCloudClient phala = mock(PhalaCloudClient.class);
    private final DelegateExecution execution = mock(DelegateExecution.class);
    private final FenceOldLeader fence = new FenceOldLeader(slots, new com.statefulcvm.delegates.support.PhalaEffects(phala,
            new com.statefulcvm.delegates.support.MemoryEffectIntents(), java.time.Clock.systemUTC(),
            new com.statefulcvm.delegates.support.EffectSettings(null)));

    @BeforeEach
    void theOldLeaderIsPg0() {
        ReplicaSetSpec spec = new ReplicaSetSpec();
        spec.setName("pg");
        when(slots.spec(execution)).thenReturn(spec);
        when(execution.getVariable(FailoverVariables.OLD_LEADER)).thenReturn("pg-0");
        when(execution.getProcessInstanceId()).thenReturn("failover-1");
        when(execution.getVariable(FailoverVariables.REPLICA_SET)).thenReturn("pg");
    }

    private static CvmInfo cvm(String status, boolean inProgress) {
        return new CvmInfo("cvm_pg0", "pg-0", "a".repeat(40), "uuid", "i".repeat(40), status, inProgress, null, "hash",
                null, null, null, null, null, null, null, null, null, null, null, null);
    }

    private void slotHas(CvmInfo cvm) {
        when(slots.find(any(), eq("pg-0"))).thenReturn(Optional.ofNullable(cvm));
    }

    @Test
    void aRunningCvmIsStoppedAndPolledUntilItIs() {
        slotHas(cvm("running", false));
        fence.execute(execution);
        verify(phala).stop("cvm_pg0");
        verify(execution).setVariable(FailoverVariables.OLD_LEADER_FENCED, false);
        verify(execution).setVariable(FailoverVariables.FENCE_REQUESTED, true);
    }

    @Test
    void aStoppedCvmIsFencedWithoutAnotherStop() {
        slotHas(cvm("stopped", false));
        fence.execute(execution);
        verify(phala, never()).stop(anyString());
        verify(execution).setVariable(FailoverVariables.OLD_LEADER_FENCED, true);
    }

    @Test
    void aCvmBusyStoppingIsLeftToSettle() {
        slotHas(cvm("stopping", true));
        fence.execute(execution);
        verify(phala, never()).stop(anyString());
        verify(execution).setVariable(FailoverVariables.OLD_LEADER_FENCED, false);
    }

    @Test
    void aCvmThatIsGoneCannotComeBack() {
        slotHas(null);
        fence.execute(execution);
        verify(phala, never()).stop(anyString());
        verify(execution).setVariable(FailoverVariables.OLD_LEADER_FENCED, true);
    }

    @Test
    void aCvmThatStoppedBetweenTheReadAndTheStopIsSeenAtTheNextPoll() {
        slotHas(cvm("running", false));
        when(phala.stop("cvm_pg0")).thenThrow(new PhalaApiException(400, "ERR-01-007", "CVM is already stopped", null,
                "POST", "/cvms/cvm_pg0/stop", null));
        fence.execute(execution);
        verify(execution).setVariable(FailoverVariables.OLD_LEADER_FENCED, false);
        verify(execution, never()).setVariable(FailoverVariables.FENCE_REQUESTED, true);
    }

    @Test
    void withoutAKnownOldLeaderNothingIsStopped() {
        when(execution.getVariable(FailoverVariables.OLD_LEADER)).thenReturn(null);
        fence.execute(execution);
        verifyNoInteractions(phala);
        verify(execution).setVariable(FailoverVariables.OLD_LEADER_FENCED, true);
    }
}
