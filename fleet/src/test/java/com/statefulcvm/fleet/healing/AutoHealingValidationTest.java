package com.statefulcvm.fleet.healing;

import com.statefulcvm.fleet.HealApproval;
import com.statefulcvm.fleet.DataLossPolicy;
import com.statefulcvm.fleet.AutoHealing;
import com.statefulcvm.fleet.FleetDefinition;
import com.statefulcvm.fleet.FleetValidator;
import com.statefulcvm.fleet.ReplicaSetSpec;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class AutoHealingValidationTest {

    private final FleetValidator validator = new FleetValidator(Set.of("generic"), true, Path.of("."));

    private static ReplicaSetSpec set() {
        ReplicaSetSpec set = new ReplicaSetSpec();
        set.setName("dbset");
        set.setReplicas(3);
        set.setDockerCompose("services:\n  db:\n    image: postgres:16\n");
        return set;
    }

    private List<String> problems(ReplicaSetSpec set) {
        FleetDefinition fleet = new FleetDefinition();
        fleet.setReplicaSets(List.of(set));
        return validator.validate(fleet);
    }

    @Test
    void defaultsAreValidAndConservative() {
        ReplicaSetSpec set = set();
        assertThat(problems(set)).isEmpty();
        AutoHealing healing = set.getAutoHealing();
        assertThat(healing.isEnabled()).isTrue();
        assertThat(healing.getMaxConcurrent()).isEqualTo(1);
        assertThat(healing.getApproval()).isEqualTo(HealApproval.BEFORE_REPLACE);
        assertThat(healing.getOnDataLoss()).isEqualTo(DataLossPolicy.ESCALATE);
    }

    @Test
    void everyBadFieldIsNamed() {
        ReplicaSetSpec set = set();
        set.getAutoHealing().setInitialDelaySeconds(-1);
        set.getAutoHealing().setMaxConcurrent(0);
        set.getAutoHealing().setApproval(null);
        set.getAutoHealing().setOnDataLoss(null);
        assertThat(problems(set)).containsExactly(
                "replicaSets[0] (dbset): autoHealing.initialDelaySeconds: must not be negative (was -1)",
                "replicaSets[0] (dbset): autoHealing.maxConcurrent: must be at least 1 (was 0)",
                "replicaSets[0] (dbset): autoHealing.approval: is required: one of none, before-replace, always",
                "replicaSets[0] (dbset): autoHealing.onDataLoss: is required: one of replace, escalate");
    }

    @Test
    void theRepairBudgetCannotExceedTheReplicas() {
        ReplicaSetSpec set = set();
        set.getAutoHealing().setMaxConcurrent(4);
        assertThat(problems(set)).containsExactly(
                "replicaSets[0] (dbset): autoHealing.maxConcurrent: must not exceed replicas (3) (was 4)");
    }

    @Test
    void aMissingBlockIsNamed() {
        ReplicaSetSpec set = set();
        set.setAutoHealing(null);
        assertThat(problems(set)).containsExactly("replicaSets[0] (dbset): autoHealing: is required");
    }
}
