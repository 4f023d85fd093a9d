package com.statefulcvm.delegates;

import com.statefulcvm.delegates.procedure.RolloutVariables;
import com.statefulcvm.connectors.phala.PhalaCloudClient;
import com.statefulcvm.connectors.phala.model.ComposeFile;
import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.connectors.phala.model.Progress;
import com.statefulcvm.connectors.phala.model.UpdateResult;
import com.statefulcvm.delegates.support.ComposeUpdater;
import com.statefulcvm.delegates.support.EffectScope;
import com.statefulcvm.delegates.support.EffectSettings;
import com.statefulcvm.delegates.support.MemoryEffectIntents;
import com.statefulcvm.delegates.support.PhalaEffects;
import com.fasterxml.jackson.databind.node.TextNode;
import com.statefulcvm.connectors.phala.PhalaApiException;
import com.statefulcvm.connectors.phala.model.CommitUpdateResult;
import com.statefulcvm.delegates.support.OnChainRegistrations;
import org.camunda.bpm.engine.delegate.BpmnError;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import java.util.Map;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

/** A step that runs twice (a job retried after a crash) must not update, and so restart, the CVM twice. */
class ComposeUpdaterTest {

    private static final String OLD = "services:\n  web:\n    image: a\n";
    private static final String NEW = "services:\n  web:\n    image: b\n";

    private final PhalaCloudClient phala = mock(PhalaCloudClient.class);
    private final MemoryEffectIntents intents = new MemoryEffectIntents();
    private final ComposeUpdater updater = new ComposeUpdater(new PhalaEffects(phala, intents, java.time.Clock.systemUTC(),
            new EffectSettings(null)), new OnChainRegistrations());
    private final DelegateExecution execution = mock(DelegateExecution.class);
    private final EffectScope scope = new EffectScope("webdemo", "webdemo-1", "rollout", "pid-1", "pid-1/webdemo-1#1");

    static CvmInfo cvm(String status, boolean inProgress, String compose) {
        return new CvmInfo("cvm_abc", "webdemo-1", "a".repeat(40), "uuid", "i".repeat(40), status, inProgress,
                inProgress ? new Progress("running", null, "corr") : null, "hash", null, null, null, null, null, null, null,
                null, null, null, null, new ComposeFile("webdemo", compose, null, null, null, null, null, null, null, null, null));
    }

    @Test
    void aSettledCvmOnTheOldComposeIsUpdated() {
        when(phala.updateDockerCompose(anyString(), anyString())).thenReturn(new UpdateResult("in_progress", "accepted", "corr-1", null));
        String outcome = updater.ensureUpdateRequested(execution, scope, cvm("running", false, OLD), NEW);
        verify(phala).updateDockerCompose("cvm_abc", NEW);
        assertThat(outcome).contains("accepted").contains("corr-1");
    }

    @Test
    void anUpdateAcceptedBeforeIsNotSentAgainEvenWhenTheCvmSettledWithoutIt() {
        when(phala.updateDockerCompose(anyString(), anyString())).thenReturn(new UpdateResult("in_progress", "accepted", "corr-1", null));
        updater.ensureUpdateRequested(execution, scope, cvm("running", false, OLD), NEW);
        // the job died before its commit; Phala shows the CVM back on the old compose
        String outcome = updater.ensureUpdateRequested(execution, scope, cvm("running", false, OLD), NEW);
        verify(phala, times(1)).updateDockerCompose(any(), any());
        assertThat(outcome).contains("accepted before");
    }

    @Test
    void aCvmThatAlreadyHasTheTargetIsNotUpdatedAgain() {
        String outcome = updater.ensureUpdateRequested(execution, scope, cvm("running", false, NEW + "\n"), NEW);
        verify(phala, never()).updateDockerCompose(any(), any());
        assertThat(outcome).contains("already has the target compose");
    }

    @Test
    void aBusyCvmIsLeftAloneUntilItSettles() {
        String outcome = updater.ensureUpdateRequested(execution, scope, cvm("updating", true, NEW), NEW);
        verify(phala, never()).updateDockerCompose(any(), any());
        assertThat(outcome).contains("busy");
    }

    @Test
    void runningTheStepTwiceAgainstTheObservedStateUpdatesOnce() {
        when(phala.updateDockerCompose(anyString(), anyString())).thenReturn(new UpdateResult("in_progress", "accepted", "corr-1", null));
        updater.ensureUpdateRequested(execution, scope, cvm("running", false, OLD), NEW);
        // The retried job reads the CVM again: Phala shows the new compose and the update in progress.
        updater.ensureUpdateRequested(execution, scope, cvm("updating", true, NEW), NEW);
        updater.ensureUpdateRequested(execution, scope, cvm("running", false, NEW), NEW);
        verify(phala, times(1)).updateDockerCompose(any(), any());
    }

    private static PhalaApiException onChain465() {
        Map<String, com.fasterxml.jackson.databind.JsonNode> fields = Map.of(
                "compose_hash", TextNode.valueOf("ab".repeat(32)), "app_id", TextNode.valueOf("a".repeat(40)),
                "device_id", TextNode.valueOf("dev"), "commit_token", TextNode.valueOf("tok"));
        return new PhalaApiException(465, null, "register it", null, "PATCH", "/cvms/cvm_abc/docker-compose", fields,
                true, null);
    }

    @Test
    void a465InARolloutAsksForTheRegistrationOnceThenCommitsEachCvmWithItsTransaction() {
        ProcessInstanceStub rollout = new ProcessInstanceStub();
        when(execution.getVariable(RolloutVariables.ON_CHAIN_STEP)).thenReturn(true);
        when(execution.getProcessInstance()).thenReturn(rollout.execution);
        when(phala.updateDockerCompose("cvm_abc", NEW)).thenThrow(onChain465());

        assertThatThrownBy(() -> updater.ensureUpdateRequested(execution, scope, cvm("running", false, OLD), NEW))
                .isInstanceOfSatisfying(BpmnError.class, e -> assertThat(e.getErrorCode()).isEqualTo(OnChainRegistrations.ERROR_CODE));
        assertThat(rollout.variables).containsEntry(RolloutVariables.ON_CHAIN_COMPOSE_HASH, "ab".repeat(32))
                .containsEntry(RolloutVariables.ON_CHAIN_CONTRACT, "0x" + "a".repeat(40))
                .containsEntry(RolloutVariables.ON_CHAIN_CONTRACT_CALL, "addComposeHash(0x" + "ab".repeat(32) + ")");
        verify(phala, never()).commitUpdate(any(), any(), any(), any());

        // the operator registered it: the rollout holds the transaction hash for that compose hash
        when(execution.getVariable(RolloutVariables.ON_CHAIN_REGISTERED_HASH)).thenReturn("ab".repeat(32));
        when(execution.getVariable(RolloutVariables.ON_CHAIN_TRANSACTION_HASH)).thenReturn("0x" + "cd".repeat(32));
        when(phala.commitUpdate("cvm_abc", "tok", "ab".repeat(32), "0x" + "cd".repeat(32)))
                .thenReturn(new CommitUpdateResult("corr-9", "in_progress"));

        String outcome = updater.ensureUpdateRequested(execution, scope, cvm("running", false, OLD), NEW);

        assertThat(outcome).contains("committed").contains("corr-9");
        verify(phala, times(1)).commitUpdate("cvm_abc", "tok", "ab".repeat(32), "0x" + "cd".repeat(32));
    }

    @org.junit.jupiter.params.ParameterizedTest(name = "{0}")
    @org.junit.jupiter.params.provider.CsvSource({
            "466, has expired",
            "467, failed verification",
            "468, was not found on chain"})
    void aCommitTheChainRefusesAsksAgainSayingWhyAndIsNeverSentAgainWithTheSameTransaction(int status, String why) {
        ProcessInstanceStub rollout = new ProcessInstanceStub();
        String transaction = "0x" + "cd".repeat(32);
        when(execution.getVariable(RolloutVariables.ON_CHAIN_STEP)).thenReturn(true);
        when(execution.getProcessInstance()).thenReturn(rollout.execution);
        when(execution.getVariable(RolloutVariables.ON_CHAIN_REGISTERED_HASH)).thenReturn("ab".repeat(32));
        when(execution.getVariable(RolloutVariables.ON_CHAIN_TRANSACTION_HASH)).thenReturn(transaction);
        when(phala.updateDockerCompose("cvm_abc", NEW)).thenThrow(onChain465());
        when(phala.commitUpdate("cvm_abc", "tok", "ab".repeat(32), transaction))
                .thenThrow(new PhalaApiException(status, null, "refused", null, "POST", "/cvms/cvm_abc/commit-update", null));

        assertThatThrownBy(() -> updater.ensureUpdateRequested(execution, scope, cvm("running", false, OLD), NEW))
                .isInstanceOfSatisfying(BpmnError.class, e -> assertThat(e.getMessage()).contains("asked again", why));

        assertThat((String) rollout.variables.get(RolloutVariables.ON_CHAIN_REFUSAL))
                .startsWith("Phala answered " + status).contains(why, transaction);
        verify(rollout.execution).removeVariable(RolloutVariables.ON_CHAIN_TRANSACTION_HASH);
        verify(rollout.execution).removeVariable(RolloutVariables.ON_CHAIN_REGISTERED_HASH);
        verify(phala, times(1)).commitUpdate(any(), any(), any(), any());
    }

    @Test
    void aFirstAskHasNoRefusalToShow() {
        ProcessInstanceStub rollout = new ProcessInstanceStub();
        rollout.variables.put(RolloutVariables.ON_CHAIN_REFUSAL, "an earlier one");
        when(execution.getVariable(RolloutVariables.ON_CHAIN_STEP)).thenReturn(true);
        when(execution.getProcessInstance()).thenReturn(rollout.execution);
        when(phala.updateDockerCompose("cvm_abc", NEW)).thenThrow(onChain465());

        assertThatThrownBy(() -> updater.ensureUpdateRequested(execution, scope, cvm("running", false, OLD), NEW))
                .isInstanceOf(BpmnError.class);

        assertThat(rollout.variables).containsEntry(RolloutVariables.ON_CHAIN_REFUSAL, null);
    }

    @Test
    void a465OutsideTheRolloutsOnChainStepFailsTheJobWithWhatToRegister() {
        when(phala.updateDockerCompose("cvm_abc", NEW)).thenThrow(onChain465());

        assertThatThrownBy(() -> updater.ensureUpdateRequested(execution, scope, cvm("running", false, OLD), NEW))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("addComposeHash(0x" + "ab".repeat(32) + ") on 0x" + "a".repeat(40));
    }

    /** A process instance that keeps what is set on it. */
    static final class ProcessInstanceStub {
        final Map<String, Object> variables = new java.util.HashMap<>();
        final DelegateExecution execution = mock(DelegateExecution.class);

        ProcessInstanceStub() {
            org.mockito.Mockito.doAnswer(call -> variables.put(call.getArgument(0), call.getArgument(1)))
                    .when(execution).setVariable(anyString(), any());
            org.mockito.Mockito.doAnswer(call -> variables.remove(call.getArgument(0)))
                    .when(execution).removeVariable(anyString());
        }
    }
}
