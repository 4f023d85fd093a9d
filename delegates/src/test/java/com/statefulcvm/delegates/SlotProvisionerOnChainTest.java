package com.statefulcvm.delegates;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import com.statefulcvm.connectors.phala.PhalaApiException;
import com.statefulcvm.connectors.phala.PhalaCloudClient;
import com.statefulcvm.connectors.phala.model.AppInstanceRequest;
import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.delegates.procedure.RolloutVariables;
import com.statefulcvm.delegates.support.EffectScope;
import com.statefulcvm.delegates.support.EffectSettings;
import com.statefulcvm.delegates.support.MemoryEffectIntents;
import com.statefulcvm.delegates.support.OnChainRegistrations;
import com.statefulcvm.delegates.support.PhalaEffects;
import com.statefulcvm.delegates.support.ReplicaSets;
import com.statefulcvm.delegates.support.SlotProvisioner;
import com.statefulcvm.fleet.ReplicaSetSpec;
import org.camunda.bpm.engine.delegate.BpmnError;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

/**
 * A new CVM of an on-chain KMS app: {@code POST /apps/{id}/instances} answers 465 as an update does; inside a
 * rollout's slot update the registration is asked for in Tasklist and the create committed with it, elsewhere (a
 * scale, a heal) the job fails with what to register.
 */
class SlotProvisionerOnChainTest {

    private static final String APP = "a".repeat(40);
    private static final String HASH = "ab".repeat(32);
    private static final String TX = "0x" + "cd".repeat(32);

    private final PhalaCloudClient phala = mock(PhalaCloudClient.class);
    private final ReplicaSets sets = mock(ReplicaSets.class);
    private final SlotProvisioner provisioner = new SlotProvisioner(new PhalaEffects(phala, new MemoryEffectIntents(),
            Clock.systemUTC(), new EffectSettings(null)), sets, phala, new OnChainRegistrations());
    private final DelegateExecution execution = mock(DelegateExecution.class);
    private final ComposeUpdaterTest.ProcessInstanceStub rollout = new ComposeUpdaterTest.ProcessInstanceStub();
    private final EffectScope scope = new EffectScope("webdemo", "webdemo-3", "rollout", "pid-1", "pid-1/webdemo-3#1");
    private final ReplicaSetSpec spec = new ReplicaSetSpec();
    private final List<CvmInfo> listed = new ArrayList<>();

    @BeforeEach
    void anOnChainApp() {
        spec.setName("webdemo");
        spec.setReplicas(3);
        when(sets.appId(spec)).thenReturn(APP);
        when(sets.ordinalOf(spec, "webdemo-3")).thenReturn(3);
        when(sets.orphanOf(spec)).thenReturn(cvm -> false);
        when(execution.getProcessInstance()).thenReturn(rollout.execution);
        when(phala.listAppCvms(APP)).thenAnswer(call -> List.copyOf(listed));
    }

    private static PhalaApiException instance465() {
        Map<String, JsonNode> fields = Map.of("compose_hash", TextNode.valueOf(HASH), "app_id", TextNode.valueOf(APP),
                "device_id", TextNode.valueOf("dev"), "commit_token", TextNode.valueOf("tok"));
        return new PhalaApiException(465, null, "register it", null, "POST", "/apps/" + APP + "/instances", fields, true, null);
    }

    private void theRolloutRegistered() {
        when(execution.getVariable(RolloutVariables.ON_CHAIN_STEP)).thenReturn(true);
        when(execution.getVariable(RolloutVariables.ON_CHAIN_REGISTERED_HASH)).thenReturn(HASH);
        when(execution.getVariable(RolloutVariables.ON_CHAIN_TRANSACTION_HASH)).thenReturn(TX);
    }

    private static AppInstanceRequest commit() {
        return new AppInstanceRequest(null, null, null, null, HASH, "tok", TX);
    }

    @Test
    void inARolloutTheCreateAsksForTheRegistrationThenIsCommittedWithItsTokenAndNamed() {
        when(execution.getVariable(RolloutVariables.ON_CHAIN_STEP)).thenReturn(true);
        when(phala.createAppInstance(eq(APP), any())).thenThrow(instance465());

        assertThatThrownBy(() -> provisioner.ensureCreated(execution, scope, spec, "webdemo-3", Optional.empty(), "services: {}"))
                .isInstanceOfSatisfying(BpmnError.class, e -> assertThat(e.getErrorCode()).isEqualTo(OnChainRegistrations.ERROR_CODE));
        assertThat(rollout.variables).containsEntry(RolloutVariables.ON_CHAIN_COMPOSE_HASH, HASH)
                .containsEntry(RolloutVariables.ON_CHAIN_CONTRACT_CALL, "addComposeHash(0x" + HASH + ")");

        theRolloutRegistered();
        CvmInfo created = new CvmInfo("7", "dstack-app-x1y2z", APP, "uuid-3", null, "pending", null, null, HASH, null, null,
                null, null, null, null, null, null, null, null, null, null);
        org.mockito.Mockito.doAnswer(call -> {
            listed.add(new CvmInfo("cvm_3", "dstack-app-x1y2z", APP, "uuid-3", null, "pending", null, null, HASH, null,
                    null, null, null, null, null, null, null, null, null, null, null));
            return created;
        }).when(phala).createAppInstance(APP, commit());

        String stage = provisioner.ensureCreated(execution, scope, spec, "webdemo-3", Optional.empty(), "services: {}");

        assertThat(stage).contains("created");
        verify(phala, times(1)).createAppInstance(APP, commit());
        verify(phala).renameCvm("cvm_3", "webdemo-3");
    }

    @Test
    void aCommitOfTheCreateRefusedWith468AsksAgainSayingSoAndIsNotSentTwice() {
        theRolloutRegistered();
        when(phala.createAppInstance(eq(APP), any())).thenAnswer(call -> {
            AppInstanceRequest request = call.getArgument(1);
            if (request.token() == null) {
                throw instance465();
            }
            throw new PhalaApiException(468, null, "Compose hash not found on-chain", null, "POST",
                    "/apps/" + APP + "/instances", null);
        });

        assertThatThrownBy(() -> provisioner.ensureCreated(execution, scope, spec, "webdemo-3", Optional.empty(), null))
                .isInstanceOf(BpmnError.class);

        assertThat((String) rollout.variables.get(RolloutVariables.ON_CHAIN_REFUSAL))
                .contains("468", "not found on chain", "0x" + APP, TX);
        verify(phala, times(1)).createAppInstance(APP, commit());
        verify(rollout.execution).removeVariable(RolloutVariables.ON_CHAIN_TRANSACTION_HASH);
    }

    @Test
    void outsideARolloutsSlotUpdateA465FailsTheJobNamingWhatToRegisterAndHowToGiveTheTransaction() {
        when(phala.createAppInstance(eq(APP), any())).thenThrow(instance465());

        assertThatThrownBy(() -> provisioner.ensureCreated(execution, scope, spec, "webdemo-3", Optional.empty(), null))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("webdemo-3")
                .hasMessageContaining("addComposeHash(0x" + HASH + ") on 0x" + APP)
                .hasMessageContaining(RolloutVariables.ON_CHAIN_REGISTERED_HASH + " = " + HASH)
                .hasMessageContaining(RolloutVariables.ON_CHAIN_TRANSACTION_HASH);
    }
}
