package com.statefulcvm.fleet;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

class UpdatePolicyOverrideTest {

    @Test
    void appliesEveryFieldToACopyInTheFileSpellingOrAnyCase() {
        UpdatePolicy base = new UpdatePolicy();
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("type", "opportunistic");
        fields.put("minimalAction", "Refresh");
        fields.put("mostDisruptiveAllowedAction", "REPLACE");
        fields.put("maxUnavailable", "25%");
        fields.put("maxSurge", 1);
        fields.put("minReadySeconds", "30");
        fields.put("partition", 2L);
        fields.put("order", "role-aware");
        fields.put("progressDeadlineSeconds", 120.0);
        fields.put("onFailure", "rollback");
        fields.put("approveLeader", false);

        UpdatePolicy policy = UpdatePolicyOverride.apply(base, fields, 3);

        assertThat(policy.getType()).isEqualTo(UpdateType.OPPORTUNISTIC);
        assertThat(policy.getMinimalAction()).isEqualTo(UpdateAction.REFRESH);
        assertThat(policy.getMostDisruptiveAllowedAction()).isEqualTo(UpdateAction.REPLACE);
        assertThat(policy.getMaxUnavailable()).isEqualTo("25%");
        assertThat(policy.getMaxSurge()).isEqualTo("1");
        assertThat(policy.getMinReadySeconds()).isEqualTo(30);
        assertThat(policy.getPartition()).isEqualTo(2);
        assertThat(policy.getOrder()).isEqualTo(RolloutOrder.ROLE_AWARE);
        assertThat(policy.getProgressDeadlineSeconds()).isEqualTo(120);
        assertThat(policy.getOnFailure()).isEqualTo(FailurePolicy.ROLLBACK);
        assertThat(policy.isApproveLeader()).isFalse();
        assertThat(UpdatePolicyOverride.apply(base, Map.of("approveLeader", "TRUE"), 3).isApproveLeader()).isTrue();
        assertThat(base).usingRecursiveComparison().isEqualTo(new UpdatePolicy());
        assertThat(UpdatePolicyOverride.apply(base, Map.of("order", "ORDINAL_ASCENDING"), 3).getOrder())
                .isEqualTo(RolloutOrder.ORDINAL_ASCENDING);
    }

    @Test
    void collectsEveryProblemNamingTheField() {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("maxUnavailabel", 2);
        fields.put("order", "random");
        fields.put("partition", 1.5);
        fields.put("minReadySeconds", "soon");
        fields.put("maxSurge", true);
        fields.put("maxUnavailable", "abc");
        fields.put("approveLeader", "yes");

        FleetDefinitionException e = catchThrowableOfType(FleetDefinitionException.class,
                () -> UpdatePolicyOverride.apply(new UpdatePolicy(), fields, 3));

        assertThat(e.problems()).containsExactly(
                "updatePolicy.maxUnavailabel: unknown field; known: [type, minimalAction, mostDisruptiveAllowedAction, "
                        + "maxUnavailable, maxSurge, minReadySeconds, partition, order, progressDeadlineSeconds, onFailure, approveLeader]",
                "updatePolicy.order: must be one of ordinal-descending, ordinal-ascending, role-aware (was 'random')",
                "updatePolicy.partition: must be a whole number (was 1.5)",
                "updatePolicy.minReadySeconds: must be a whole number (was 'soon')",
                "updatePolicy.maxSurge: must be a whole number or a percentage like 25% (was true)",
                "updatePolicy.approveLeader: must be true or false (was 'yes')",
                "updatePolicy.maxUnavailable: must be a whole number or a percentage like 25% (was 'abc')");
    }

    @Test
    void theResultIsValidatedLikeTheFile() {
        FleetDefinitionException e = catchThrowableOfType(FleetDefinitionException.class, () -> UpdatePolicyOverride.apply(
                new UpdatePolicy(), Map.of("minimalAction", "replace", "partition", new BigDecimal("4")), 3));
        assertThat(e.problems()).containsExactlyInAnyOrder(
                "updatePolicy.minimalAction: minimalAction REPLACE exceeds mostDisruptiveAllowedAction RESTART",
                "updatePolicy.partition: must be between 0 and replicas (3) (was 4)");
        e = catchThrowableOfType(FleetDefinitionException.class,
                () -> UpdatePolicyOverride.apply(new UpdatePolicy(), Map.of("maxUnavailable", 0), 3));
        assertThat(e.problems()).containsExactly(
                "updatePolicy.maxUnavailable: maxUnavailable and maxSurge are both 0: no instance could ever be updated");
    }

    @Test
    void theSetVariantAlsoChecksTheRoleProbe() {
        ReplicaSetSpec set = FleetValidatorTest.validSet("webdemo");
        FleetDefinitionException e = catchThrowableOfType(FleetDefinitionException.class,
                () -> UpdatePolicyOverride.apply(set, Map.of("order", "role-aware")));
        assertThat(e.problems()).singleElement().asString().startsWith("updatePolicy.order: role-aware needs roleProbe");
        set.setWorkloadType("patroni");
        assertThat(UpdatePolicyOverride.apply(set, Map.of("order", "role-aware")).getOrder()).isEqualTo(RolloutOrder.ROLE_AWARE);
        assertThat(set.getUpdatePolicy().getOrder()).isEqualTo(RolloutOrder.ORDINAL_DESCENDING);
    }

    @Test
    void theEffectivePolicyIsTheSetsWithTheOverrideAndAnAutomaticRollbackPauses() {
        ReplicaSetSpec set = new ReplicaSetSpec();
        set.setName("webdemo");
        set.setReplicas(2);
        set.getUpdatePolicy().setProgressDeadlineSeconds(60);

        UpdatePolicy rollout = UpdatePolicyOverride.effective(set, Map.of("minReadySeconds", 20, "onFailure", "rollback"), false);
        assertThat(rollout.getMinReadySeconds()).isEqualTo(20);
        assertThat(rollout.getOnFailure()).isEqualTo(FailurePolicy.ROLLBACK);
        assertThat(set.getUpdatePolicy().getMinReadySeconds()).as("the set's own policy unchanged").isZero();

        UpdatePolicy rollback = UpdatePolicyOverride.effective(set, Map.of("minReadySeconds", 20, "onFailure", "rollback"), true);
        assertThat(rollback.getMinReadySeconds()).isEqualTo(20);
        assertThat(rollback.getOnFailure()).as("a rollback never rolls back again").isEqualTo(FailurePolicy.PAUSE);

        Map<String, Object> tight = Map.of("progressDeadlineSeconds", 6, "onFailure", "rollback");
        assertThat(UpdatePolicyOverride.effective(set, tight, false).getProgressDeadlineSeconds()).isEqualTo(6);
        assertThat(UpdatePolicyOverride.effective(set, tight, true).getProgressDeadlineSeconds())
                .as("the way back is held to the fleet file's deadline, not the failed rollout's shorter one").isEqualTo(60);
        assertThat(UpdatePolicyOverride.effective(set, Map.of("progressDeadlineSeconds", 900), true).getProgressDeadlineSeconds())
                .as("a longer override stays").isEqualTo(900);

        UpdatePolicy none = UpdatePolicyOverride.effective(set, null, false);
        assertThat(none).usingRecursiveComparison().isEqualTo(set.getUpdatePolicy());
        assertThat(none).isNotSameAs(set.getUpdatePolicy());
    }
}
