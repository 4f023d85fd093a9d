package com.statefulcvm.delegates;

import com.statefulcvm.delegates.procedure.RolloutVariables;
import com.statefulcvm.connectors.phala.PhalaCloudClient;
import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.delegates.support.TakeDownCheck;
import com.statefulcvm.delegates.rollout.ApplyPlannedAction;
import com.statefulcvm.delegates.rollout.SlotControl;
import com.statefulcvm.delegates.rollout.SlotStateReader;
import com.statefulcvm.delegates.support.EffectivePolicy;
import com.statefulcvm.delegates.support.ReplicaSets;
import com.statefulcvm.delegates.support.StepHeld;
import com.statefulcvm.fleet.admission.FenceRegistry;
import com.statefulcvm.delegates.support.ComposeUpdater;
import com.statefulcvm.delegates.support.EffectScope;
import com.statefulcvm.delegates.support.EffectSettings;
import com.statefulcvm.delegates.support.EnvUpdater;
import com.statefulcvm.delegates.support.MemoryEffectIntents;
import com.statefulcvm.delegates.support.PhalaEffects;
import com.statefulcvm.delegates.support.RestartOnce;
import com.statefulcvm.delegates.support.ReplicaSetObserver;
import com.statefulcvm.delegates.support.SlotConditions;
import com.statefulcvm.delegates.support.SlotProvisioner;
import com.statefulcvm.delegates.support.SlotReader;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.rollout.RolloutAction;
import com.statefulcvm.fleet.effects.Effect;
import com.statefulcvm.fleet.effects.EffectIntent;
import com.statefulcvm.fleet.effects.EffectState;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyBoolean;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.argThat;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

/**
 * "Apply the planned action" on a slot whose CVM already has the target compose: a running CVM is restarted, but a
 * stopped one (it crashed during its update, the progress deadline halted the rollout and the operator retries the
 * slot) is started, since Phala refuses to restart a CVM that is not running. Whatever it asks, it asks once per
 * attempt at the slot: the job that runs again after its node died (its variables rolled back) reads the intent.
 */
class ApplyPlannedActionTest {

    private static final String TARGET = "services:\n  web:\n    image: b\n";

    private final SlotReader slots = mock(SlotReader.class);
    private final PhalaCloudClient phala = mock(PhalaCloudClient.class);
    private final DelegateExecution execution = mock(DelegateExecution.class);
    private final MemoryEffectIntents intents = new MemoryEffectIntents();
    private final PhalaEffects effects = new PhalaEffects(phala, intents, Clock.systemUTC(), new EffectSettings(null));
    private final ReplicaSets sets = mock(ReplicaSets.class);
    private final FenceRegistry fences = mock(FenceRegistry.class);
    private final RestartOnce restarts = new RestartOnce(effects);
    private final EnvUpdater envs = new EnvUpdater(effects, new com.statefulcvm.delegates.support.OnChainRegistrations(),
            mock(com.statefulcvm.delegates.support.SlotEnvs.class), mock(com.statefulcvm.fleet.drift.EnvRegistry.class));
    private final ApplyPlannedAction apply = new ApplyPlannedAction(
            new SlotStateReader(slots, new com.statefulcvm.delegates.support.TargetCompose(mock(com.statefulcvm.fleet.RevisionHistory.class)),
                    envs, restarts, effects),
            new SlotControl(new ComposeUpdater(effects, new com.statefulcvm.delegates.support.OnChainRegistrations()),
                    mock(SlotProvisioner.class), envs, restarts),
            mock(ReplicaSetObserver.class), mock(SlotConditions.class),
            new TakeDownCheck(phala, sets, fences, (set, by) -> false, Clock.systemUTC()), slots);

    @BeforeEach
    void aRestartOfTheSlot() {
        ReplicaSetSpec spec = new ReplicaSetSpec();
        spec.setName("webdemo");
        spec.setReplicas(3);
        when(sets.appId(spec)).thenReturn("app-web");
        setIsLive("running", "running", "running");
        when(slots.spec(execution)).thenReturn(spec);
        when(slots.slot(execution)).thenReturn("webdemo-1");
        when(slots.policy(execution, spec)).thenAnswer(read -> new EffectivePolicy().of(spec, execution));
        when(slots.action(execution)).thenReturn(RolloutAction.RESTART);
        when(execution.getVariable(RolloutVariables.TARGET_COMPOSE)).thenReturn(TARGET);
        when(execution.getProcessInstanceId()).thenReturn("rollout-1");
        when(execution.getProcessDefinitionId()).thenReturn("rollout:3:abc");
        when(execution.getVariable(RolloutVariables.REPLICA_SET)).thenReturn("webdemo");
        when(execution.getVariable(RolloutVariables.SLOT)).thenReturn("webdemo-1");
    }

    /** What Phala shows now for webdemo-0, -1 and -2 (the slot's own CVM is asked for by {@link #slotHas}). */
    private void setIsLive(String... statuses) {
        java.util.List<CvmInfo> cvms = new java.util.ArrayList<>();
        for (int i = 0; i < statuses.length; i++) {
            CvmInfo c = ComposeUpdaterTest.cvm(statuses[i], false, TARGET);
            cvms.add(new CvmInfo("cvm_" + i, "webdemo-" + i, c.appId(), "uuid-" + i, c.instanceId(), c.status(), c.inProgress(),
                    c.progress(), c.composeHash(), null, null, null, null, null, null, null, null, null, null, null, c.composeFile()));
        }
        when(phala.listAppCvms("app-web")).thenReturn(cvms);
    }

    private EffectScope scope() {
        return EffectScope.of(execution);
    }

    private void slotHas(CvmInfo cvm) {
        when(slots.find(any(), eq("webdemo-1"))).thenReturn(Optional.of(cvm));
    }

    @Test
    void aStoppedCvmThatAlreadyHasTheTargetIsStartedNotRestarted() throws Exception {
        slotHas(ComposeUpdaterTest.cvm("stopped", false, TARGET));
        apply.execute(execution);
        verify(phala).start("cvm_abc");
        verify(phala, never()).restart(anyString(), anyBoolean());
        verify(phala, never()).updateDockerCompose(any(), any());
        assertThat(intents.find(scope().key(Effect.START, null))).get().extracting(EffectIntent::state).isEqualTo(EffectState.APPLIED);
        verify(execution).setVariable(eq(RolloutVariables.STAGE), argThat((String stage) -> stage.startsWith("start of webdemo-1")));
    }

    @Test
    void aRunningCvmThatAlreadyHasTheTargetIsRestarted() throws Exception {
        slotHas(ComposeUpdaterTest.cvm("running", false, TARGET));
        apply.execute(execution);
        verify(phala).restart("cvm_abc", false);
        verify(phala, never()).start(anyString());
    }

    @Test
    void aStartAlreadyRequestedIsNotRequestedAgain() throws Exception {
        when(phala.start("cvm_abc")).thenReturn(ComposeUpdaterTest.cvm("starting", true, TARGET));
        slotHas(ComposeUpdaterTest.cvm("stopped", false, TARGET));
        apply.execute(execution);
        // the job's node died before the commit: the job runs again and finds the CVM crashed once more
        apply.execute(execution);
        verify(phala, times(1)).start(anyString());
        verify(phala, never()).restart(anyString(), anyBoolean());
    }

    @Test
    void aRestartWhoseJobDiedAfterPhalaAcceptedItIsNotMadeAgainOnceTheCvmHasSettled() throws Exception {
        when(phala.restart("cvm_abc", false)).thenReturn(ComposeUpdaterTest.cvm("restarting", true, TARGET));
        slotHas(ComposeUpdaterTest.cvm("running", false, TARGET));
        apply.execute(execution);
        // rolled back: no variable says it asked, and the CVM is running and settled again, as before the restart
        apply.execute(execution);
        verify(phala, times(1)).restart("cvm_abc", false);
        verify(execution).setVariable(eq(RolloutVariables.STAGE), argThat((String stage) -> stage.contains("not asked again")));
    }

    @Test
    void anEnvRolloutOnTheTargetComposeSendsTheEncryptedEnvOnceAndDoesNotRestartOnTop() throws Exception {
        when(execution.getVariable(RolloutVariables.TARGET_ENV_KEYS)).thenReturn("DB_PASSWORD,GREETING");
        when(execution.getVariable(RolloutVariables.TARGET_ENCRYPTED_ENV)).thenReturn("abcdef");
        when(phala.updateEnvs(anyString(), any())).thenReturn(new com.statefulcvm.connectors.phala.model.UpdateResult("in_progress", "accepted", "c-1", null));
        slotHas(ComposeUpdaterTest.cvm("running", false, TARGET));

        apply.execute(execution);

        verify(phala).updateEnvs("cvm_abc", new com.statefulcvm.connectors.phala.model.EnvUpdate("abcdef", java.util.List.of("DB_PASSWORD", "GREETING")));
        verify(phala, never()).restart(anyString(), anyBoolean());
        verify(phala, never()).updateDockerCompose(any(), any());
        assertThat(intents.find(scope().key(Effect.UPDATE_ENV, null))).get().extracting(EffectIntent::state).isEqualTo(EffectState.APPLIED);
        verify(execution).setVariable(eq(RolloutVariables.STAGE), argThat((String stage) -> stage.startsWith("env update of webdemo-1 (DB_PASSWORD, GREETING)")));
    }

    @Test
    void anEnvAndComposeRolloutSendsTheComposeFirst() throws Exception {
        when(execution.getVariable(RolloutVariables.TARGET_ENV_KEYS)).thenReturn("TOKEN");
        when(execution.getVariable(RolloutVariables.TARGET_ENCRYPTED_ENV)).thenReturn("abcdef");
        when(phala.updateDockerCompose(anyString(), anyString())).thenReturn(new com.statefulcvm.connectors.phala.model.UpdateResult("in_progress", "accepted", "c-2", null));
        slotHas(ComposeUpdaterTest.cvm("running", false, "services:\n  web:\n    image: a\n"));

        apply.execute(execution);

        verify(phala).updateDockerCompose("cvm_abc", TARGET);
        verify(phala, never()).updateEnvs(anyString(), any());
    }

    @Test
    void anEnvUpdateAlreadyAcceptedIsNotSentAgain() throws Exception {
        when(execution.getVariable(RolloutVariables.TARGET_ENV_KEYS)).thenReturn("TOKEN");
        when(execution.getVariable(RolloutVariables.TARGET_ENCRYPTED_ENV)).thenReturn("abcdef");
        when(execution.getVariable(RolloutVariables.COMPOSE_CHANGE_SLOTS)).thenReturn(java.util.List.of());
        when(phala.updateEnvs(anyString(), any())).thenReturn(new com.statefulcvm.connectors.phala.model.UpdateResult("in_progress", "accepted", "c-1", null));
        slotHas(ComposeUpdaterTest.cvm("running", false, TARGET));

        apply.execute(execution);
        apply.execute(execution);

        verify(phala, times(1)).updateEnvs(anyString(), any());
        verify(phala, never()).restart(anyString(), anyBoolean());
    }

    @Test
    void noSlotIsTakenDownWhileAnotherWentDownSinceThePlan() {
        // seed 18: webdemo-0 crashed a moment ago; the registry may not show it yet, Phala does
        setIsLive("stopped", "running", "running");
        slotHas(ComposeUpdaterTest.cvm("running", false, "services:\n  web:\n    image: a\n"));

        assertThatThrownBy(() -> apply.execute(execution)).isInstanceOfSatisfying(StepHeld.class, held -> {
            assertThat(held.getMessage()).startsWith("Holding: Disruption budget of 'webdemo' spent: taking webdemo-1 down "
                    + "would leave 1 serving, the budget needs 2").contains("webdemo-0 (CVM status stopped)");
            assertThat(held.until()).isAfter(java.time.Instant.now());
            assertThat(held.stage()).get().asString().startsWith("holding before taking webdemo-1 down");
        });
        verify(phala, never()).updateDockerCompose(any(), any());
        verify(phala, never()).restart(anyString(), anyBoolean());
        verify(phala, never()).updateEnvs(anyString(), any());
        assertThat(intents.ofProcedure("rollout-1")).as("no intent: nothing was asked").isEmpty();

        // once the other slot runs again the held step acts
        setIsLive("running", "running", "running");
        when(phala.updateDockerCompose(anyString(), anyString())).thenReturn(new com.statefulcvm.connectors.phala.model.UpdateResult("in_progress", "accepted", "c-3", null));
        apply.execute(execution);
        verify(phala).updateDockerCompose("cvm_abc", TARGET);
    }

    @Test
    void aFencedSlotAndAnOperationInProgressCountAsDown() {
        when(fences.fences("webdemo")).thenReturn(java.util.List.of(new com.statefulcvm.fleet.admission.Fence("webdemo", 2, "i",
                com.statefulcvm.fleet.FencePolicy.values()[0], "attestation failed", java.time.Instant.now(), null)));
        slotHas(ComposeUpdaterTest.cvm("running", false, TARGET));
        assertThatThrownBy(() -> apply.execute(execution)).isInstanceOf(StepHeld.class).hasMessageContaining("webdemo-2 (fenced)");

        when(fences.fences("webdemo")).thenReturn(java.util.List.of());
        setIsLive("running", "running", "restarting");
        assertThatThrownBy(() -> apply.execute(execution)).isInstanceOf(StepHeld.class).hasMessageContaining("webdemo-2 (CVM status restarting)");
        verify(phala, never()).restart(anyString(), anyBoolean());
    }

    @Test
    void theRolloutsOwnMaxUnavailableIsTheBudget() {
        when(execution.getVariable(RolloutVariables.UPDATE_POLICY_OVERRIDE)).thenReturn("{\"maxUnavailable\": 2}");
        setIsLive("stopped", "running", "running");
        slotHas(ComposeUpdaterTest.cvm("running", false, TARGET));
        apply.execute(execution);
        verify(phala).restart("cvm_abc", false);
    }

    @Test
    void aRerunOfAnAttemptThatAskedAlreadyIsNotHeld() {
        when(phala.restart("cvm_abc", false)).thenReturn(ComposeUpdaterTest.cvm("restarting", true, TARGET));
        slotHas(ComposeUpdaterTest.cvm("running", false, TARGET));
        apply.execute(execution);
        // the job's node died after Phala took the restart; meanwhile another slot crashed
        setIsLive("stopped", "restarting", "running");
        apply.execute(execution);
        verify(phala, times(1)).restart("cvm_abc", false);
    }

    @Test
    void aCrashedSlotOfTheWaveIsStartedWhateverTheOthersDo() {
        // starting a stopped CVM takes nothing down
        setIsLive("stopped", "stopped", "running");
        slotHas(ComposeUpdaterTest.cvm("stopped", false, TARGET));
        apply.execute(execution);
        verify(phala).start("cvm_abc");
    }
}
