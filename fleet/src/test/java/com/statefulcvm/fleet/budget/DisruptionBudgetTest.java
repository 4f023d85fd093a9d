package com.statefulcvm.fleet.budget;

import com.statefulcvm.fleet.UpdatePolicy;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class DisruptionBudgetTest {

    private static UpdatePolicy maxUnavailable(String value) {
        UpdatePolicy policy = new UpdatePolicy();
        policy.setMaxUnavailable(value);
        return policy;
    }

    private static List<SlotAvailability> slots(int members, int down) {
        List<SlotAvailability> slots = new ArrayList<>();
        for (int i = 0; i < members; i++) {
            slots.add(i < down ? SlotAvailability.down(i, "s-" + i, "CVM status stopped") : SlotAvailability.up(i, "s-" + i));
        }
        return slots;
    }

    @Test
    void aRaftStoreNeedsAMajorityTheOthersOneMember() {
        assertThat(DisruptionBudget.quorum("etcd", 3)).isEqualTo(2);
        assertThat(DisruptionBudget.quorum("consul", 5)).isEqualTo(3);
        assertThat(DisruptionBudget.quorum("etcd", 4)).isEqualTo(3);
        assertThat(DisruptionBudget.quorum("patroni", 3)).isEqualTo(1);
        assertThat(DisruptionBudget.quorum("generic", 2)).isEqualTo(1);
        assertThat(DisruptionBudget.quorum("etcd", 0)).isZero();
    }

    @Test
    void moreSlotsDownThanTheQuorumToleratesIsAnOutage() {
        DisruptionBudget etcd = DisruptionBudget.of(3, "etcd", maxUnavailable("1"));
        assertThat(etcd.tolerated()).isEqualTo(1);
        assertThat(etcd.judge(slots(3, 1)).outage()).isFalse();
        DisruptionBudget.Judgement twoDown = etcd.judge(slots(3, 2));
        assertThat(twoDown.outage()).isTrue();
        assertThat(twoDown.summary()).isEqualTo("2 of 3 slots down (s-0: CVM status stopped; s-1: CVM status stopped); "
                + "quorum 2 of 3, tolerates 1 down");

        DisruptionBudget patroni = DisruptionBudget.of(3, "patroni", maxUnavailable("1"));
        assertThat(patroni.judge(slots(3, 2)).outage()).as("the leader alone serves").isFalse();
        assertThat(patroni.judge(slots(3, 3)).outage()).as("every member down: a lights-out").isTrue();
    }

    @Test
    void aSetOfOneHasNoOutageItsOnlyReplicaIsTheMostRecent() {
        DisruptionBudget one = DisruptionBudget.of(1, "etcd", maxUnavailable("1"));
        assertThat(one.judge(slots(1, 1)).outage()).isFalse();
        assertThat(one.disruptionsAllowed()).as("it can still be updated").isEqualTo(1);
    }

    @Test
    void ourDisruptionsAreTheUpdatePolicysCappedAtTheTolerance() {
        assertThat(DisruptionBudget.of(3, "etcd", maxUnavailable("2")).disruptionsAllowed()).isEqualTo(1);
        assertThat(DisruptionBudget.of(2, "etcd", maxUnavailable("1")).disruptionsAllowed()).as("tolerates none: one, knowingly").isEqualTo(1);
        UpdatePolicy surgeOnly = maxUnavailable("0");
        surgeOnly.setMaxSurge("1");
        assertThat(DisruptionBudget.of(3, "generic", surgeOnly).disruptionsAllowed()).as("surges instead").isZero();
        assertThat(DisruptionBudget.of(5, "generic", maxUnavailable("40%")).disruptionsAllowed()).isEqualTo(2);
        assertThat(DisruptionBudget.of(5, "consul", maxUnavailable("3")).disruptionsAllowed()).isEqualTo(2);
        DisruptionBudget.Judgement oneDown = DisruptionBudget.of(5, "generic", maxUnavailable("2")).judge(slots(5, 1));
        assertThat(oneDown.room()).isEqualTo(1);
        assertThat(DisruptionBudget.of(3, "etcd", maxUnavailable("1")).judge(slots(3, 2)).room()).isZero();
    }
}
