package com.statefulcvm.delegates.admission;

import com.statefulcvm.delegates.procedure.AttestationVariables;
import com.statefulcvm.delegates.procedure.FenceOverride;
import com.statefulcvm.delegates.procedure.HealStarter;
import com.statefulcvm.delegates.procedure.HealVariables;
import com.statefulcvm.delegates.procedure.LightsOutVariables;
import com.statefulcvm.connectors.attestation.AttestationVerifier;
import com.statefulcvm.connectors.guestagent.GuestAgentClient;
import com.statefulcvm.connectors.health.InstanceUrlTemplate;
import com.statefulcvm.connectors.phala.PhalaApiException;
import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.delegates.attestation.AttestInstance;
import com.statefulcvm.delegates.attestation.EvidenceJudge;
import com.statefulcvm.delegates.attestation.ExpectedComposeHashes;
import com.statefulcvm.fleet.admission.AdmittedIdentities;
import com.statefulcvm.fleet.admission.PinnedPlatforms;
import com.statefulcvm.delegates.attestation.AttestationSettings;
import com.statefulcvm.delegates.support.PhalaEffects;
import com.statefulcvm.delegates.support.ReplicaSetObserver;
import com.statefulcvm.delegates.support.ReplicaSets;
import com.statefulcvm.delegates.support.RolloutSettings;
import com.statefulcvm.delegates.support.SlotReader;
import com.statefulcvm.delegates.support.SlotStep;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.admission.Fence;
import com.statefulcvm.fleet.FencePolicy;
import com.statefulcvm.fleet.admission.FenceRegistry;
import com.statefulcvm.fleet.admission.RefusalRegistry;
import com.statefulcvm.fleet.UpdatePolicy;
import com.statefulcvm.fleet.budget.DisruptionBudget;
import com.statefulcvm.fleet.budget.SlotAvailability;
import com.statefulcvm.delegates.procedure.RefusalDecisionStarter;
import com.statefulcvm.delegates.support.TakeDownCheck;
import java.util.List;
import java.util.Map;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.mockito.ArgumentCaptor;
import org.mockito.InOrder;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.contains;
import static org.mockito.ArgumentMatchers.startsWith;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.doThrow;
import static org.mockito.Mockito.inOrder;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;

/**
 * Issue 20, fences everywhere, at the two steps every procedure shares: attest-instance.bpmn's verification refuses a
 * fenced slot unless an operator brings it back (a readmit, the lights-out override), and never lifts a fence
 * otherwise; the fence step commits the fence before it asks Phala for the stop, and a stop Phala does not take is asked
 * again rather than failing the step (the fence stands either way).
 */
class FenceGuardsTest {

    private static final Instant NOW = Instant.parse("2026-11-26T12:00:00Z");
    private static final Fence FENCE = new Fence("db", 1, "i-1", FencePolicy.STOP, "QUOTE_INVALID: failed quote.signature",
            NOW.minusSeconds(60), "admit-instance 7");

    private final SlotReader slots = mock(SlotReader.class);
    private final ReplicaSets replicaSets = mock(ReplicaSets.class);
    private final FenceRegistry fences = mock(FenceRegistry.class);
    private final RefusalRegistry refusals = mock(RefusalRegistry.class);
    private final RefusalDecisionStarter decisions = mock(RefusalDecisionStarter.class);
    private final PhalaEffects effects = mock(PhalaEffects.class);
    private final GuestAgentClient guestAgent = mock(GuestAgentClient.class);
    private final AttestationVerifier verifier = mock(AttestationVerifier.class);
    private final ReplicaSetObserver observer = mock(ReplicaSetObserver.class);
    private final HealStarter holders = mock(HealStarter.class);
    private final Clock clock = Clock.fixed(NOW, ZoneOffset.UTC);
    private final ReplicaSetSpec spec = new ReplicaSetSpec();
    private final CvmInfo cvm = new CvmInfo("cvm_db1", "db-1", "a".repeat(40), "uuid", "i-1", "running", false, null, "hash",
            null, null, null, null, null, null, null, null, null, null, null, null);

    @BeforeEach
    void aSetWhoseSlotOneIsFenced() {
        spec.setName("db");
        spec.setReplicas(3);
        when(slots.spec(any())).thenReturn(spec);
        when(slots.slot(any())).thenReturn("db-1");
        when(slots.read(any())).thenReturn(new SlotStep(spec, "db-1", cvm));
        when(slots.find(spec, "db-1")).thenReturn(Optional.of(cvm));
        when(replicaSets.ordinalOf(spec, "db-1")).thenReturn(1);
        when(fences.fence("db", 1)).thenReturn(Optional.of(FENCE));
        when(holders.snapshot("db")).thenReturn(new HealStarter.Snapshot(Map.of(), Map.of()));
    }

    /** An execution of attest-instance called by a procedure of this kind, started with these variables. */
    private static DelegateExecution calledBy(String processKey, String variable, Object value) {
        DelegateExecution procedure = mock(DelegateExecution.class);
        when(procedure.getProcessInstance()).thenReturn(procedure);
        when(procedure.getProcessDefinitionId()).thenReturn(processKey + ":1:x");
        when(procedure.getProcessInstanceId()).thenReturn(processKey + "-pid");
        when(procedure.getVariable(variable)).thenReturn(value);
        when(procedure.getVariable(AttestationVariables.REQUESTED_BY)).thenReturn("olivia");
        DelegateExecution attest = mock(DelegateExecution.class);
        DelegateExecution attestInstance = mock(DelegateExecution.class);
        when(attest.getProcessInstance()).thenReturn(attestInstance);
        when(attestInstance.getSuperExecution()).thenReturn(procedure);
        return attest;
    }

    private AttestInstance attestInstance() {
        EvidenceJudge judge = new EvidenceJudge(guestAgent, mock(InstanceUrlTemplate.class), verifier,
                new AttestationSettings(8090, at -> null), mock(PinnedPlatforms.class), clock);
        return new AttestInstance(slots, replicaSets, judge, observer, fences, refusals, mock(AdmittedIdentities.class),
                mock(ExpectedComposeHashes.class), mock(com.statefulcvm.delegates.support.SlotEnvs.class), clock);
    }

    @Test
    void aRolloutsAttestationRefusesAFencedSlotWithoutAskingForEvidenceAndLiftsNothing() {
        DelegateExecution execution = calledBy("rollout", "unused", null);
        attestInstance().execute(execution);
        verify(execution).setVariable(AttestationVariables.ATTESTED, false);
        verify(execution).setVariable(AttestationVariables.ATTESTATION_CODE, AttestInstance.FENCED);
        ArgumentCaptor<Object> reason = ArgumentCaptor.forClass(Object.class);
        verify(execution).setVariable(eq(AttestationVariables.ATTESTATION_REASON), reason.capture());
        assertThat(reason.getValue()).asString().contains("db-1 is fenced (stopped): attestation failed: QUOTE_INVALID")
                .contains("only an operator's readmit lifts the fence");
        verifyNoInteractions(guestAgent, verifier);
        verify(fences, never()).lift(anyString(), anyInt());
    }

    @Test
    void aHealThatIsNoReadmitIsRefusedLikeAnyOtherProcedure() {
        DelegateExecution execution = calledBy("heal", HealVariables.HEAL_TRIGGER, "monitor");
        attestInstance().execute(execution);
        verify(execution).setVariable(AttestationVariables.ATTESTATION_CODE, AttestInstance.FENCED);
        verify(fences, never()).lift(anyString(), anyInt());
    }

    @Test
    void aReadmitHasItsAttestationDecideAndTheLightsOutOverrideToo() {
        assertThat(FenceOverride.liftedBy(calledBy("heal", HealVariables.HEAL_TRIGGER, "readmit")))
                .isEqualTo("readmit heal-pid requested by olivia");
        assertThat(FenceOverride.liftedBy(calledBy("lights-out-recovery", LightsOutVariables.READMIT_FENCED, true)))
                .isEqualTo("lights-out recovery lights-out-recovery-pid with readmitFenced, requested by olivia");
        assertThat(FenceOverride.liftedBy(calledBy("lights-out-recovery", LightsOutVariables.READMIT_FENCED, false))).isNull();
        assertThat(FenceOverride.liftedBy(calledBy("scale", LightsOutVariables.READMIT_FENCED, true))).isNull();
        // the readmit's verification runs (here: the guest agent does not answer, so it is refused, not FENCED)
        DelegateExecution readmit = calledBy("heal", HealVariables.HEAL_TRIGGER, "readmit");
        spec.getAttestation().setRequired(false);
        attestInstance().execute(readmit);
        verify(readmit).setVariable(AttestationVariables.ATTESTED, true);
        verify(fences).lift("db", 1);
    }

    @Test
    void theFenceIsCommittedBeforeTheStopAndAStopPhalaRefusesIsAskedAgainNotFailed() {
        DelegateExecution execution = calledBy("rollout", "unused", null);
        when(execution.getVariable(AttestationVariables.ATTESTATION_REASON)).thenReturn("ADMISSION_REJECTED: compose_hash");
        when(fences.fence("db", 1)).thenReturn(Optional.empty());
        doThrow(new PhalaApiException(503, null, "Service Unavailable", null, "POST", "/cvms/cvm_db1/stop", null))
                .when(effects).stopUntilItHolds(any(), eq(cvm));
        FenceInstance fence = fenceInstance(true);
        fence.execute(execution);
        InOrder order = inOrder(fences, effects);
        ArgumentCaptor<Fence> saved = ArgumentCaptor.forClass(Fence.class);
        order.verify(fences).save(saved.capture());
        order.verify(effects).stopUntilItHolds(any(), eq(cvm));
        verify(effects).stopUntilItHolds(any(), eq(cvm)); // once, and after the fence: nothing is asked of Phala before it is recorded
        assertThat(saved.getValue().reason()).isEqualTo("ADMISSION_REJECTED: compose_hash");
        verify(execution).setVariable(AttestationVariables.FENCE_HOLDS, false);
    }

    @Test
    void aSlotRefusedBecauseItIsFencedKeepsTheFenceItHas() {
        DelegateExecution execution = calledBy("rollout", "unused", null);
        when(execution.getVariable(AttestationVariables.ATTESTATION_CODE)).thenReturn(AttestInstance.FENCED);
        when(execution.getVariable(AttestationVariables.ATTESTATION_REASON)).thenReturn("FENCED: db-1 is fenced ...");
        fenceInstance(false).execute(execution);
        verify(fences).save(FENCE);
        verify(refusals, never()).save(any());
        verifyNoInteractions(decisions);
    }

    /**
     * A fence is a take-down: when the disruption budget has no room for one more slot down (every CVM refused at once,
     * say), the refused instance is not fenced and nothing is asked of Phala; the refusal is recorded, the slot's
     * condition says so, and the set's decision is asked of an approver. Without the budget's look it was fenced and
     * stopped.
     */
    @Test
    void beyondTheBudgetARefusedInstanceKeepsRunningUnadmittedAndAnApproverIsAsked() {
        DelegateExecution execution = calledBy("admit-instance", "unused", null);
        when(execution.getVariable(AttestationVariables.ATTESTATION_CODE)).thenReturn("ADMISSION_REJECTED");
        when(execution.getVariable(AttestationVariables.ATTESTATION_REASON)).thenReturn("ADMISSION_REJECTED: platform (MRTD ab…)");
        when(execution.getVariable(AttestationVariables.ATTESTED_PLATFORM)).thenReturn("MRTD ab, RTMR0 cd, RTMR1 ef, RTMR2 01");
        when(fences.fence("db", 1)).thenReturn(Optional.empty());
        fenceInstance(false).execute(execution);
        verify(fences, never()).save(any());
        verifyNoInteractions(effects);
        ArgumentCaptor<com.statefulcvm.fleet.admission.Refusal> refusal = ArgumentCaptor.forClass(com.statefulcvm.fleet.admission.Refusal.class);
        verify(refusals).save(refusal.capture());
        assertThat(refusal.getValue()).isEqualTo(new com.statefulcvm.fleet.admission.Refusal("db", 1, "i-1", "ADMISSION_REJECTED",
                "ADMISSION_REJECTED: platform (MRTD ab…)", "MRTD ab, RTMR0 cd, RTMR1 ef, RTMR2 01", NOW, "admit-instance admit-instance-pid"));
        verify(observer).recordCondition(eq(spec), eq("db-1"), startsWith("AttestationRefused: ADMISSION_REJECTED: platform"));
        verify(execution).setVariable(AttestationVariables.FENCE_ACTION, AttestationVariables.FENCE_HELD);
        verify(execution).setVariable(eq(AttestationVariables.FENCE_HELD_BECAUSE), contains("taking db-1 down would leave 1 serving"));
        verify(decisions).ensureRunning("db");
    }

    @Test
    void withinTheBudgetTheFenceLiftsAStandingRefusal() {
        DelegateExecution execution = calledBy("admit-instance", "unused", null);
        when(execution.getVariable(AttestationVariables.ATTESTATION_REASON)).thenReturn("QUOTE_INVALID: failed quote.signature");
        when(fences.fence("db", 1)).thenReturn(Optional.empty());
        fenceInstance(true).execute(execution);
        verify(fences).save(any());
        verify(refusals).lift("db", 1);
        verifyNoInteractions(decisions);
    }

    /** The fence step, with the budget's answer for taking db-1 down now: room for it, or none (one of three serves). */
    private FenceInstance fenceInstance(boolean room) {
        TakeDownCheck takeDowns = mock(TakeDownCheck.class);
        DisruptionBudget budget = DisruptionBudget.of(3, com.statefulcvm.fleet.QuorumRule.MAJORITY, new UpdatePolicy());
        when(takeDowns.judgeHolding(eq(spec), any(), eq("db-1"), anyString())).thenReturn(room
                ? new DisruptionBudget.TakeDown(budget, "db-1", true, 2, 2, List.of())
                : new DisruptionBudget.TakeDown(budget, "db-1", false, 1, 2, List.of(SlotAvailability.down(0, "db-0", "fenced"))));
        return new FenceInstance(slots, replicaSets, effects, fences, observer, mock(RolloutSettings.class), refusals, takeDowns,
                decisions, holders, clock);
    }

    /**
     * The monitor's re-attestation judged a slot no procedure held when it looked; a rollout that took the slot since
     * is updating the CVM, whose guest agent answers nothing meanwhile: that verdict fences nothing, the rollout
     * attests the slot itself. Without the look the updating CVM was fenced and stopped and the rollout halted.
     */
    @Test
    void theMonitorsReattestationFencesNothingOnceARolloutHasTakenTheSlot() {
        DelegateExecution execution = calledBy("admit-instance", "unused", null);
        when(execution.getVariable(AttestationVariables.ATTESTATION_REASON)).thenReturn("EVIDENCE_UNAVAILABLE: guest agent answered 502");
        when(fences.fence("db", 1)).thenReturn(Optional.empty());
        when(holders.snapshot("db")).thenReturn(new HealStarter.Snapshot(Map.of(), Map.of("db-1", "rollout-7")));
        fenceInstance(true).execute(execution);
        verify(fences, never()).save(any());
        verify(refusals, never()).save(any());
        verifyNoInteractions(effects, decisions);
        verify(execution).setVariable(AttestationVariables.FENCE_ACTION, AttestationVariables.FENCE_YIELDED);
        verify(execution).setVariable(AttestationVariables.FENCE_YIELDED_TO, "rollout rollout-7 is working on db-1");
    }

    /** The rollout's own attestation of the slot it holds fences as ever: only the monitor's look yields. */
    @Test
    void aProceduresOwnAttestationOfTheSlotItHoldsStillFences() {
        DelegateExecution execution = calledBy("rollout", "unused", null);
        when(execution.getVariable(AttestationVariables.ATTESTATION_REASON)).thenReturn("QUOTE_INVALID: failed quote.signature");
        when(fences.fence("db", 1)).thenReturn(Optional.empty());
        when(holders.snapshot("db")).thenReturn(new HealStarter.Snapshot(Map.of(), Map.of("db-1", "rollout-pid")));
        fenceInstance(true).execute(execution);
        verify(fences).save(any());
        verify(execution, never()).setVariable(AttestationVariables.FENCE_ACTION, AttestationVariables.FENCE_YIELDED);
    }

    @Test
    void theStopIsAskedUntilPhalaShowsItStopped() {
        ConfirmFencedStop confirm = new ConfirmFencedStop(slots, effects);
        DelegateExecution execution = mock(DelegateExecution.class);
        confirm.execute(execution);
        verify(effects).stopUntilItHolds(any(), eq(cvm));
        verify(execution).setVariable(AttestationVariables.FENCE_HOLDS, false);
        CvmInfo stopped = new CvmInfo("cvm_db1", "db-1", "a".repeat(40), "uuid", "i-1", "stopped", false, null, "hash",
                null, null, null, null, null, null, null, null, null, null, null, null);
        when(slots.find(spec, "db-1")).thenReturn(Optional.of(stopped));
        DelegateExecution again = mock(DelegateExecution.class);
        confirm.execute(again);
        verify(again).setVariable(AttestationVariables.FENCE_HOLDS, true);
    }
}
