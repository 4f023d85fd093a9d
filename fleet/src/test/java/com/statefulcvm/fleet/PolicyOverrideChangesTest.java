package com.statefulcvm.fleet;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class PolicyOverrideChangesTest {

    @Test
    void eachChangedFieldIsShownBesideTheFleetFilesValue() {
        UpdatePolicy fleet = new UpdatePolicy();
        UpdatePolicy effective = UpdatePolicyOverride.apply(fleet, Map.of("onFailure", "ROLLBACK", "maxUnavailable", "100%"), 3);
        PolicyOverrideChanges changes = PolicyOverrideChanges.between(fleet, effective);
        assertThat(changes.display()).contains("maxUnavailable: 100% (fleet file: 1)").contains("onFailure: ROLLBACK (fleet file: PAUSE)");
        assertThat(changes.weakensApprovals()).isFalse();
    }

    @Test
    void removingTheLeadersApprovalWeakensAnApproval() {
        UpdatePolicy fleet = new UpdatePolicy();
        fleet.setOrder(RolloutOrder.ROLE_AWARE);
        PolicyOverrideChanges off = PolicyOverrideChanges.between(fleet, UpdatePolicyOverride.apply(fleet, Map.of("approveLeader", false), 3));
        assertThat(off.weakensApprovals()).isTrue();
        assertThat(off.display()).contains("approveLeader: false (fleet file: true): REMOVES the leader's approval");
        PolicyOverrideChanges order = PolicyOverrideChanges.between(fleet,
                UpdatePolicyOverride.apply(fleet, Map.of("order", "ordinal-ascending"), 3));
        assertThat(order.weakensApprovals()).as("no leader step without role-aware").isTrue();
    }

    @Test
    void withoutAnOverrideNothingIsShownAsChanged() {
        UpdatePolicy fleet = new UpdatePolicy();
        PolicyOverrideChanges none = PolicyOverrideChanges.between(fleet, fleet.copy());
        assertThat(none.changes()).isEmpty();
        assertThat(none.display()).startsWith("none");
        UpdatePolicy noLeaderApproval = new UpdatePolicy();
        noLeaderApproval.setApproveLeader(false);
        assertThat(PolicyOverrideChanges.between(noLeaderApproval, UpdatePolicyOverride.apply(noLeaderApproval,
                Map.of("approveLeader", true), 3)).weakensApprovals()).as("asking for more is no weakening").isFalse();
    }
}
