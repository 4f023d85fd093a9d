package com.statefulcvm.delegates.procedure;

import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.budget.Outage;
import com.statefulcvm.fleet.budget.OutageRegistry;
import com.statefulcvm.fleet.budget.SlotAvailability;
import org.camunda.bpm.engine.RuntimeService;
import org.camunda.bpm.engine.runtime.MessageCorrelationBuilder;
import org.camunda.bpm.engine.runtime.ProcessInstance;
import org.camunda.bpm.engine.runtime.ProcessInstanceQuery;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.anyMap;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.RETURNS_SELF;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

/**
 * The outage guard as the health monitor and every heal start meet it: a set with more slots down than its budget
 * tolerates gets its outage recorded, no heal, and (once a slot would have been healed) one proposed lights-out
 * recovery; a heal start is refused while the outage stands; the outage ends when enough slots serve again.
 */
class OutageGuardTest {

    /** The registry as a map: what the guard declares is what the next caller reads. */
    private final Map<String, Outage> stored = new HashMap<>();
    private final OutageRegistry registry = new OutageRegistry() {
        public Optional<Outage> outage(String set) {
            return Optional.ofNullable(stored.get(set));
        }

        public void declare(Outage outage) {
            stored.put(outage.replicaSet(), outage);
        }

        public void end(String set) {
            stored.remove(set);
        }
    };
    private final RuntimeService runtime = mock(RuntimeService.class);
    private final ProcessInstanceQuery query = mock(ProcessInstanceQuery.class, RETURNS_SELF);
    private final OutageGuard guard = new OutageGuard(registry, runtime,
            Clock.fixed(Instant.parse("2026-11-26T12:00:00Z"), ZoneOffset.UTC));
    private final ReplicaSetSpec spec = new ReplicaSetSpec();

    @BeforeEach
    void aThreeMemberEtcdSetAndAnIdleEngine() {
        spec.setName("kv");
        spec.setReplicas(3);
        spec.setWorkloadType("etcd");
        when(runtime.createProcessInstanceQuery()).thenReturn(query);
        when(query.list()).thenReturn(List.of());
        ProcessInstance proposed = mock(ProcessInstance.class);
        when(proposed.getId()).thenReturn("lights-out-1");
        when(runtime.startProcessInstanceByKey(eq("lights-out-recovery"), eq("kv"), anyMap())).thenReturn(proposed);
        when(runtime.createMessageCorrelation(anyString())).thenReturn(mock(MessageCorrelationBuilder.class, RETURNS_SELF));
    }

    private static List<SlotAvailability> down(int count) {
        List<SlotAvailability> slots = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            slots.add(i < count ? SlotAvailability.down(i, "kv-" + i, "CVM status stopped") : SlotAvailability.up(i, "kv-" + i));
        }
        return slots;
    }

    @Test
    void oneSlotDownOfAQuorumOfTwoIsAFailureHealedAsOne() {
        OutageGuard.RoundDecision decision = guard.afterRound(spec, down(1), true);
        assertThat(decision.healsAllowed()).isTrue();
        assertThat(stored).isEmpty();
        assertThat(new HealStarter(runtime, mock(com.statefulcvm.fleet.healing.MonitorLeases.class), guard).refusal(spec, 0, emptySnapshot(), true)).isNull();
    }

    @Test
    void twoSlotsDownIsAnOutageNoHealAndOneRecoveryProposedOnceASlotIsDue() {
        OutageGuard.RoundDecision first = guard.afterRound(spec, down(2), false);
        assertThat(first.healsAllowed()).isFalse();
        assertThat(stored.get("kv").down()).isEqualTo("2 of 3 slots down (kv-0: CVM status stopped; kv-1: CVM status stopped)");
        assertThat(stored.get("kv").recovery()).as("nothing due yet: no proposal").isNull();
        verify(runtime, never()).startProcessInstanceByKey(anyString(), anyString(), anyMap());

        OutageGuard.RoundDecision due = guard.afterRound(spec, down(2), true);
        assertThat(due.healsAllowed()).isFalse();
        assertThat(stored.get("kv").recovery()).isEqualTo("lights-out-1");
        assertThat(stored.get("kv").since()).isEqualTo(Instant.parse("2026-11-26T12:00:00Z"));
        assertThat(due.note()).contains("lights-out recovery lights-out-1 proposed");
        guard.afterRound(spec, down(3), true);
        verify(runtime).startProcessInstanceByKey(eq("lights-out-recovery"), eq("kv"), anyMap());

        HealStarter.Outcome refused = new HealStarter(runtime, mock(com.statefulcvm.fleet.healing.MonitorLeases.class), guard).refusal(spec, 2, emptySnapshot(), false);
        assertThat(refused).isInstanceOf(HealStarter.InOutage.class);
        assertThat(((HealStarter.InOutage) refused).refusal()).startsWith("replica set 'kv' is in an outage since 2026-11-26T12:00:00Z")
                .contains("a heal of kv-2 would act on one slot");

        assertThat(guard.afterRound(spec, down(1), true).healsAllowed()).as("over: heals resume").isTrue();
        assertThat(stored).isEmpty();
    }

    @Test
    void noRecoveryIsProposedWhileAProcedureWouldRefuseIt() {
        ProcessInstance heal = mock(ProcessInstance.class);
        when(heal.getId()).thenReturn("heal-7");
        when(heal.getBusinessKey()).thenReturn("kv/0");
        ProcessInstanceQuery heals = mock(ProcessInstanceQuery.class, RETURNS_SELF);
        when(heals.list()).thenReturn(List.of(heal));
        when(query.processDefinitionKey("heal")).thenReturn(heals);
        OutageGuard.RoundDecision decision = guard.afterRound(spec, down(3), true);
        assertThat(decision.note()).contains("recovery not proposed yet: heal heal-7 of kv/0 is running (it yields)");
        assertThat(stored.get("kv").recovery()).isNull();
    }

    private static HealStarter.Snapshot emptySnapshot() {
        return new HealStarter.Snapshot(new HashMap<>(), Map.of());
    }
}
