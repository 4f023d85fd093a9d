package com.statefulcvm.delegates;

import com.fasterxml.jackson.databind.node.TextNode;
import com.statefulcvm.connectors.phala.PhalaApiException;
import com.statefulcvm.connectors.phala.PhalaCloudClient;
import com.statefulcvm.connectors.phala.model.EnvUpdate;
import com.statefulcvm.connectors.phala.model.UpdateResult;
import com.statefulcvm.delegates.procedure.RolloutVariables;
import com.statefulcvm.delegates.support.EffectSettings;
import com.statefulcvm.delegates.support.EnvUpdater;
import com.statefulcvm.delegates.support.MemoryEffectIntents;
import com.statefulcvm.delegates.support.OnChainRegistrations;
import com.statefulcvm.delegates.support.PhalaEffects;
import org.camunda.bpm.engine.delegate.BpmnError;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

/**
 * Issue 18: an env update of an on-chain KMS app whose {@code env_keys} change its compose hash answers 465; the
 * rollout asks for the registration like a compose update's, then sends the env update again with the compose hash and
 * the transaction hash in its body (SDK {@code updateCvmEnvs}, phase 2).
 */
class EnvUpdaterTest {

    private static final String HASH = "ab".repeat(32);
    private static final String TRANSACTION = "0x" + "cd".repeat(32);

    private final PhalaCloudClient phala = mock(PhalaCloudClient.class);
    private final EnvUpdater updater = new EnvUpdater(new PhalaEffects(phala, new MemoryEffectIntents(), Clock.systemUTC(),
            new EffectSettings(null)), new OnChainRegistrations(),
            mock(com.statefulcvm.delegates.support.SlotEnvs.class), mock(com.statefulcvm.fleet.drift.EnvRegistry.class));
    private final DelegateExecution execution = mock(DelegateExecution.class);
    private final ComposeUpdaterTest.ProcessInstanceStub rollout = new ComposeUpdaterTest.ProcessInstanceStub();

    @BeforeEach
    void aRolloutStepWithAnEnvChange() {
        when(execution.getVariable(RolloutVariables.SLOT)).thenReturn("webdemo-1");
        when(execution.getVariable(RolloutVariables.REPLICA_SET)).thenReturn("webdemo");
        when(execution.getProcessInstanceId()).thenReturn("pid-1");
        when(execution.getVariable(RolloutVariables.TARGET_ENCRYPTED_ENV)).thenReturn("00ff");
        when(execution.getVariable(RolloutVariables.TARGET_ENV_KEYS)).thenReturn("DB_PASSWORD");
        when(execution.getVariable(RolloutVariables.ON_CHAIN_STEP)).thenReturn(true);
        when(execution.getProcessInstance()).thenReturn(rollout.execution);
    }

    private static PhalaApiException onChain465() {
        Map<String, com.fasterxml.jackson.databind.JsonNode> fields = Map.of(
                "compose_hash", TextNode.valueOf(HASH), "app_id", TextNode.valueOf("a".repeat(40)),
                "device_id", TextNode.valueOf("dev"));
        return new PhalaApiException(465, null, "register it", null, "PATCH", "/cvms/cvm_abc/envs", fields, true, null);
    }

    @Test
    void a465AsksForTheRegistrationThenTheEnvUpdateGoesAgainWithTheHashesInItsBody() {
        EnvUpdate first = new EnvUpdate("00ff", List.of("DB_PASSWORD"));
        when(phala.updateEnvs("cvm_abc", first)).thenThrow(onChain465());

        assertThatThrownBy(() -> updater.ensureUpdateRequested(execution, ComposeUpdaterTest.cvm("running", false, "services: {}\n")))
                .isInstanceOfSatisfying(BpmnError.class, e -> assertThat(e.getErrorCode()).isEqualTo(OnChainRegistrations.ERROR_CODE));
        assertThat(rollout.variables).containsEntry(RolloutVariables.ON_CHAIN_COMPOSE_HASH, HASH)
                .containsEntry(RolloutVariables.ON_CHAIN_CONTRACT_CALL, "addComposeHash(0x" + HASH + ")");

        when(execution.getVariable(RolloutVariables.ON_CHAIN_REGISTERED_HASH)).thenReturn(HASH);
        when(execution.getVariable(RolloutVariables.ON_CHAIN_TRANSACTION_HASH)).thenReturn(TRANSACTION);
        EnvUpdate committed = first.withOnChainCommit(HASH, TRANSACTION);
        when(phala.updateEnvs("cvm_abc", committed)).thenReturn(new UpdateResult("in_progress", "accepted", "corr-7", null));

        String outcome = updater.ensureUpdateRequested(execution, ComposeUpdaterTest.cvm("running", false, "services: {}\n"));

        assertThat(outcome).contains("accepted").contains("corr-7");
        // phase 1 again (its 465 carries the hash the transaction must register), then phase 2 once
        verify(phala, times(1)).updateEnvs(eq("cvm_abc"), eq(committed));
        verify(phala, times(3)).updateEnvs(eq("cvm_abc"), any());
    }
}
