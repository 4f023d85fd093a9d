package com.statefulcvm.delegates.hooks;

import com.statefulcvm.connectors.health.InstanceUrlTemplate;
import com.statefulcvm.connectors.phala.PhalaCloudClient;
import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.delegates.support.ReplicaSets;
import com.statefulcvm.delegates.support.SlotReader;
import com.statefulcvm.fleet.ReplicaSetSpec;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Field;
import java.net.ServerSocket;
import java.util.List;
import java.util.Optional;

import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

/**
 * drain-patroni's decision for a member that crashed during a rollout (chaos seed 4: the rollout halted at the
 * crashed pgha-2, whose drain waited for an answer that could never come, and held the slot away from the monitor's
 * heal until the operator aborted it), and for a running member that does not answer: the gateway after the step
 * always has a decision to read.
 */
class DecidePatroniDrainTest {

    private final SlotReader slots = mock(SlotReader.class);
    private final ReplicaSets sets = mock(ReplicaSets.class);
    private final PhalaCloudClient phala = mock(PhalaCloudClient.class);
    private final DelegateExecution execution = mock(DelegateExecution.class);
    private final DecidePatroniDrain step = new DecidePatroniDrain();
    private final ReplicaSetSpec spec = new ReplicaSetSpec();

    @BeforeEach
    void aPatroniSet() throws Exception {
        spec.setName("pgha");
        spec.setReplicas(3);
        spec.setWorkloadType("patroni");
        int closed;
        try (ServerSocket socket = new ServerSocket(0)) {
            closed = socket.getLocalPort();
        }
        // every member's admin API on a port nothing listens on: a Patroni that does not answer
        inject("slots", slots);
        inject("replicaSets", sets);
        inject("phala", phala);
        inject("urls", new InstanceUrlTemplate("http://127.0.0.1:" + closed + "/{instanceId}/{port}{path}"));
        when(slots.spec(execution)).thenReturn(spec);
        when(slots.slot(execution)).thenReturn("pgha-2");
        when(sets.appId(spec)).thenReturn("app-pgha");
        when(execution.getProcessInstance()).thenReturn(execution);
    }

    private void inject(String field, Object value) throws Exception {
        Field f = HookStep.class.getDeclaredField(field);
        f.setAccessible(true);
        f.set(step, value);
    }

    private static CvmInfo member(String name, String status) {
        return new CvmInfo("cvm_" + name, name, "app-pgha", "uuid-" + name, "i".repeat(40), status, false, null, null, null,
                null, null, null, null, null, null, null, null, null, null, null);
    }

    @Test
    void aCrashedMemberHasNothingToDrainAndIsNotAsked() {
        CvmInfo crashed = member("pgha-2", "stopped");
        when(slots.find(spec, "pgha-2")).thenReturn(Optional.of(crashed));
        when(phala.listAppCvms("app-pgha")).thenReturn(List.of(member("pgha-0", "running"), member("pgha-1", "running"), crashed));

        step.execute(execution);

        verify(execution).setVariable("drainDecision", "NOT_A_MEMBER");
        verify(execution).setVariable("hookReady", true);
    }

    @Test
    void aRunningMemberThatDoesNotAnswerIsWaitedForWithADecisionToRead() {
        CvmInfo silent = member("pgha-2", "running");
        when(slots.find(spec, "pgha-2")).thenReturn(Optional.of(silent));
        when(phala.listAppCvms("app-pgha")).thenReturn(List.of(member("pgha-0", "running"), member("pgha-1", "running"), silent));

        step.execute(execution);

        verify(execution).setVariable("drainDecision", "WAIT");
        verify(execution).setVariable("hookReady", false);
        verify(execution, never()).setVariable(eq("drainDecision"), eq("NOT_A_MEMBER"));
    }
}
