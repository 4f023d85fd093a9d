package com.statefulcvm.fleet;

import com.statefulcvm.fleet.budget.DisruptionBudget;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class WorkloadCatalogTest {

    @Test
    void theBuiltInTypesAreDescriptors() {
        WorkloadCatalog builtIn = WorkloadCatalog.BUILT_IN;
        assertThat(builtIn.names()).containsExactly("consul", "etcd", "galera", "generic", "patroni");
        assertThat(builtIn.of("etcd").quorumOf(5)).isEqualTo(3);
        assertThat(builtIn.of("consul").quorumOf(3)).isEqualTo(2);
        assertThat(builtIn.of("patroni").quorumOf(3)).isEqualTo(1);
        assertThat(builtIn.of("generic").quorumOf(4)).isEqualTo(1);
        assertThat(builtIn.of("etcd").getMinReplicas()).isEqualTo(3);
        assertThat(builtIn.of("patroni").getMinReplicas()).isEqualTo(2);
        assertThat(builtIn.of("patroni").getRoleProbe().getPort()).isEqualTo(8008);
        assertThat(builtIn.of("patroni").isHoldBack()).isTrue();
        assertThat(builtIn.of("etcd").isHoldBack()).isTrue();
        assertThat(builtIn.of("consul").isHoldBack()).isFalse();
        assertThat(builtIn.of("generic").runs(WorkloadHook.DRAIN)).isFalse();
        assertThat(builtIn.of("consul").getAdminPort()).isEqualTo(8500);
    }

    @Test
    void aConfiguredTypeGetsTheQuorumItDeclaresAndTheBudgetProtectsIt() {
        WorkloadType kv = new WorkloadType();
        kv.setQuorum("majority");
        kv.setMinReplicas(3);
        WorkloadCatalog catalog = WorkloadCatalog.withConfigured(Map.of("kv", kv));
        ReplicaSetSpec set = new ReplicaSetSpec();
        set.setName("store");
        set.setReplicas(5);
        set.setWorkloadType("kv");
        set.getUpdatePolicy().setMaxUnavailable("4");
        set.useWorkload(catalog);
        DisruptionBudget budget = DisruptionBudget.of(set);
        assertThat(budget.quorum()).isEqualTo(3);
        assertThat(budget.disruptionsAllowed()).as("maxUnavailable 4 capped at what keeps the majority").isEqualTo(2);
        assertThat(set.minReplicas()).isEqualTo(3);
        assertThat(set.withReplicas(7).workload()).isSameAs(kv);
    }

    @Test
    void aSetOfAnUndeclaredTypeHasNoQuorumOfOneToFallBackOn() {
        ReplicaSetSpec set = new ReplicaSetSpec();
        set.setWorkloadType("kv");
        assertThatThrownBy(set::workload).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("workload type 'kv' has no descriptor (orchestrator.workload-types.kv)");
    }

    @Test
    void quorumRules() {
        assertThat(QuorumRule.parse("majority").of(4)).isEqualTo(3);
        assertThat(QuorumRule.parse("ALL").of(3)).isEqualTo(3);
        assertThat(QuorumRule.parse("one").of(3)).isEqualTo(1);
        assertThat(QuorumRule.parse("2").of(5)).isEqualTo(2);
        assertThat(QuorumRule.parse("4").of(3)).as("never more than the members").isEqualTo(3);
        assertThat(QuorumRule.parse("majority").of(0)).isZero();
        assertThatThrownBy(() -> QuorumRule.parse("most")).hasMessage("must be majority, all, one or a number of members from 1 (was 'most')");
        assertThatThrownBy(() -> QuorumRule.parse("0")).hasMessageContaining("(was '0')");
    }

    @Test
    void everyProblemOfAConfiguredTypeIsNamedAndAConfiguredOneReplacesABuiltIn() {
        WorkloadType bad = new WorkloadType();
        bad.setQuorum("most");
        bad.setMinReplicas(0);
        bad.setAdminPort(70000);
        Map<String, WorkloadType> configured = new LinkedHashMap<>();
        configured.put("kv", bad);
        assertThatThrownBy(() -> WorkloadCatalog.withConfigured(configured)).hasMessage(
                "workloadTypes.kv.quorum: must be majority, all, one or a number of members from 1 (was 'most'); "
                        + "workloadTypes.kv.minReplicas: must be at least 1 (was 0); "
                        + "workloadTypes.kv.adminPort: must be a port from 1 to 65535, or 0 for none (was 70000)");
        WorkloadType etcd = new WorkloadType();
        etcd.setQuorum("all");
        etcd.setHooks(Set.of(WorkloadHook.DRAIN));
        WorkloadCatalog replaced = WorkloadCatalog.withConfigured(Map.of("etcd", etcd));
        assertThat(replaced.of("etcd").quorumOf(3)).isEqualTo(3);
        assertThat(replaced.of("etcd").runs(WorkloadHook.REJOIN)).isFalse();
    }
}
