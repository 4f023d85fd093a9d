package com.statefulcvm.fleet.budget;

import com.statefulcvm.fleet.WorkloadCatalog;
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
        assertThat(WorkloadCatalog.BUILT_IN.of("etcd").quorumOf(3)).isEqualTo(2);
        assertThat(WorkloadCatalog.BUILT_IN.of("consul").quorumOf(5)).isEqualTo(3);
        assertThat(WorkloadCatalog.BUILT_IN.of("etcd").quorumOf(4)).isEqualTo(3);
        assertThat(WorkloadCatalog.BUILT_IN.of("patroni").quorumOf(3)).isEqualTo(1);
        assertThat(WorkloadCatalog.BUILT_IN.of("generic").quorumOf(2)).isEqualTo(1);
        assertThat(WorkloadCatalog.BUILT_IN.of("etcd").quorumOf(0)).isZero();
    }

    @Test
    void moreSlotsDownThanTheQuorumToleratesIsAnOutage() {
        DisruptionBudget etcd = DisruptionBudget.of(3, WorkloadCatalog.BUILT_IN.of("etcd").quorumRule(), maxUnavailable("1"));
        assertThat(etcd.tolerated()).isEqualTo(1);
        assertThat(etcd.judge(slots(3, 1)).outage()).isFalse();
        DisruptionBudget.Judgement twoDown = etcd.judge(slots(3, 2));
        assertThat(twoDown.outage()).isTrue();
        assertThat(twoDown.summary()).isEqualTo("2 of 3 slots down (s-0: CVM status stopped; s-1: CVM status stopped); "
                + "quorum 2 of 3, tolerates 1 down");

        DisruptionBudget patroni = DisruptionBudget.of(3, WorkloadCatalog.BUILT_IN.of("patroni").quorumRule(), maxUnavailable("1"));
        assertThat(patroni.judge(slots(3, 2)).outage()).as("the leader alone serves").isFalse();
        assertThat(patroni.judge(slots(3, 3)).outage()).as("every member down: a lights-out").isTrue();
    }

    @Test
    void aSetOfOneHasNoOutageItsOnlyReplicaIsTheMostRecent() {
        DisruptionBudget one = DisruptionBudget.of(1, WorkloadCatalog.BUILT_IN.of("etcd").quorumRule(), maxUnavailable("1"));
        assertThat(one.judge(slots(1, 1)).outage()).isFalse();
        assertThat(one.disruptionsAllowed()).as("it can still be updated").isEqualTo(1);
    }

    @Test
    void ourDisruptionsAreTheUpdatePolicysCappedAtTheTolerance() {
        assertThat(DisruptionBudget.of(3, WorkloadCatalog.BUILT_IN.of("etcd").quorumRule(), maxUnavailable("2")).disruptionsAllowed()).isEqualTo(1);
        assertThat(DisruptionBudget.of(2, WorkloadCatalog.BUILT_IN.of("etcd").quorumRule(), maxUnavailable("1")).disruptionsAllowed()).as("tolerates none: one, knowingly").isEqualTo(1);
        UpdatePolicy surgeOnly = maxUnavailable("0");
        surgeOnly.setMaxSurge("1");
        assertThat(DisruptionBudget.of(3, WorkloadCatalog.BUILT_IN.of("generic").quorumRule(), surgeOnly).disruptionsAllowed()).as("surges instead").isZero();
        assertThat(DisruptionBudget.of(5, WorkloadCatalog.BUILT_IN.of("generic").quorumRule(), maxUnavailable("40%")).disruptionsAllowed()).isEqualTo(2);
        assertThat(DisruptionBudget.of(5, WorkloadCatalog.BUILT_IN.of("consul").quorumRule(), maxUnavailable("3")).disruptionsAllowed()).isEqualTo(2);
        DisruptionBudget.Judgement oneDown = DisruptionBudget.of(5, WorkloadCatalog.BUILT_IN.of("generic").quorumRule(), maxUnavailable("2")).judge(slots(5, 1));
        assertThat(oneDown.room()).isEqualTo(1);
        assertThat(DisruptionBudget.of(3, WorkloadCatalog.BUILT_IN.of("etcd").quorumRule(), maxUnavailable("1")).judge(slots(3, 2)).room()).isZero();
    }

    /** The other slots of a set of {@code members}: {@code down} of them down, the rest serving. */
    private static List<SlotAvailability> others(int members, int down) {
        return slots(members, down).subList(0, members - 1);
    }

    @Test
    void aSlotIsNotTakenDownWhileAnotherIsDownAlready() {
        // seed 18 of the chaos checker: web-0 crashed, and a moment later the rollout took web-1 down
        DisruptionBudget web = DisruptionBudget.of(5, WorkloadCatalog.BUILT_IN.of("generic").quorumRule(), maxUnavailable("1"));
        assertThat(web.judgeTakeDown("s-4", others(5, 0)).allowed()).isTrue();
        DisruptionBudget.TakeDown spent = web.judgeTakeDown("s-4", others(5, 1));
        assertThat(spent.allowed()).isFalse();
        assertThat(spent.summary()).isEqualTo("taking s-4 down would leave 3 serving, the budget needs 4 (1 down by our "
                + "hand at most; quorum 1 of 5, tolerates 4 down); down now: s-0 (CVM status stopped)");
        assertThat(DisruptionBudget.of(5, WorkloadCatalog.BUILT_IN.of("generic").quorumRule(), maxUnavailable("2")).judgeTakeDown("s-4", others(5, 1)).allowed())
                .as("maxUnavailable 2 leaves room for one more").isTrue();
    }

    @Test
    void aRaftStoreNeverLosesItsQuorumByOurHand() {
        DisruptionBudget etcd = DisruptionBudget.of(3, WorkloadCatalog.BUILT_IN.of("etcd").quorumRule(), maxUnavailable("2"));
        assertThat(etcd.judgeTakeDown("s-2", others(3, 0)).allowed()).isTrue();
        assertThat(etcd.judgeTakeDown("s-2", others(3, 1)).allowed()).as("1 of 3 would serve").isFalse();
    }

    @Test
    void aSurgeThatServesMakesRoomForMaxUnavailableZero() {
        UpdatePolicy policy = maxUnavailable("0");
        policy.setMaxSurge("1");
        DisruptionBudget surging = DisruptionBudget.of(3, WorkloadCatalog.BUILT_IN.of("generic").quorumRule(), policy);
        List<SlotAvailability> withoutSurge = others(3, 0);
        assertThat(surging.judgeTakeDown("s-2", withoutSurge).allowed()).as("no surge serving yet").isFalse();
        List<SlotAvailability> withSurge = new ArrayList<>(withoutSurge);
        withSurge.add(SlotAvailability.up(3, "s-3"));
        assertThat(surging.judgeTakeDown("s-2", withSurge).allowed()).isTrue();
    }

    @Test
    void aSlotThatIsDownAlreadyCostsNothingMore() {
        DisruptionBudget one = DisruptionBudget.of(1, WorkloadCatalog.BUILT_IN.of("generic").quorumRule(), maxUnavailable("1"));
        assertThat(one.judgeTakeDown("s-0", List.of()).allowed()).isTrue();
    }
}
