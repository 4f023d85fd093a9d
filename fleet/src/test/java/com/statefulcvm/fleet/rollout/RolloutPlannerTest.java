package com.statefulcvm.fleet.rollout;

import com.statefulcvm.fleet.QuorumRule;
import com.statefulcvm.fleet.UpdateType;
import com.statefulcvm.fleet.UpdatePolicy;
import com.statefulcvm.fleet.UpdateAction;
import com.statefulcvm.fleet.RolloutOrder;
import com.statefulcvm.fleet.InstanceRole;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RolloutPlannerTest {

    private static final String OLD = "services:\n  web:\n    image: nginx:1.26\n";
    private static final String NEW = "services:\n  web:\n    image: nginx:1.27\n";
    private final RolloutPlanner planner = new RolloutPlanner();

    private static InstanceSnapshot instance(int ordinal, String compose) {
        return new InstanceSnapshot(ordinal, "x-" + ordinal, "cvm_" + ordinal, "running", compose, "1a2b3c4d5e6f7890" + ordinal,
                true, InstanceRole.UNKNOWN);
    }

    private static InstanceSnapshot unavailable(int ordinal, String compose) {
        return new InstanceSnapshot(ordinal, "x-" + ordinal, "cvm_" + ordinal, "running", compose, "hash" + ordinal, false,
                InstanceRole.UNKNOWN);
    }

    private static InstanceSnapshot withRole(int ordinal, InstanceRole role) {
        return new InstanceSnapshot(ordinal, "x-" + ordinal, "cvm_" + ordinal, "running", OLD, "hash" + ordinal, true, role);
    }

    private static List<InstanceSnapshot> allOld(int replicas) {
        return IntStream.range(0, replicas).mapToObj(i -> instance(i, OLD)).toList();
    }

    private static UpdatePolicy policy(Consumer<UpdatePolicy> change) {
        UpdatePolicy policy = new UpdatePolicy();
        change.accept(policy);
        return policy;
    }

    private static PlanRequest request(int replicas, UpdatePolicy policy, List<InstanceSnapshot> instances) {
        return new PlanRequest("x", replicas, policy, instances, NEW, Set.of(), false, false);
    }

    private RolloutPlan plan(int replicas, Consumer<UpdatePolicy> change, List<InstanceSnapshot> instances) {
        return planner.plan(request(replicas, policy(change), instances));
    }

    @Test
    void maxUnavailableTwoTakesTwoInstancesDownPerWave() {
        RolloutPlan plan = plan(5, p -> p.setMaxUnavailable("2"), allOld(5));
        assertThat(plan.waves()).containsExactly(List.of("x-4", "x-3"), List.of("x-2", "x-1"), List.of("x-0"));
        assertThat(plan.steps()).extracting(PlannedStep::wave).containsExactly(1, 1, 2, 2, 3);
        assertThat(plan.steps()).extracting(PlannedStep::action).containsOnly(RolloutAction.RESTART);
        assertThat(plan.steps().get(0).reason()).isEqualTo("compose differs from the target (now 1a2b3c4d5e6f, status running)");
        assertThat(plan.blockers()).containsExactly(
                "wave 2 (x-2, x-1): waiting: 2 of 2 unavailable allowed",
                "wave 3 (x-0): waiting: 2 of 2 unavailable allowed");
        assertThat(plan.maxUnavailable()).isEqualTo(2);
        assertThat(plan.maxSurge()).isZero();
        assertThat(plan.surgeSlots()).isEmpty();
        assertThat(plan.refused()).isFalse();
    }

    /** Issue 20: a fenced slot is neither updated nor counted available, whatever its CVM shows. */
    @Test
    void aFencedSlotIsNotUpdatedAndEatsTheBudgetLikeAnyInstanceThatIsDown() {
        List<InstanceSnapshot> instances = new java.util.ArrayList<>(allOld(3));
        instances.set(1, new InstanceSnapshot(1, "x-1", "cvm_1", "running", OLD, "hash1", true, InstanceRole.UNKNOWN,
                "fenced (stopped): attestation failed: QUOTE_INVALID"));
        RolloutPlan plan = plan(3, p -> p.setMaxUnavailable("1"), instances);
        assertThat(plan.slotsToUpdate()).containsExactly("x-2", "x-0");
        assertThat(plan.steps()).filteredOn(s -> s.slot().equals("x-1")).singleElement()
                .satisfies(s -> assertThat(s.action()).isEqualTo(RolloutAction.NONE))
                .satisfies(s -> assertThat(s.reason()).isEqualTo("fenced (stopped): attestation failed: QUOTE_INVALID; not updated until readmitted"));
        assertThat(plan.refused()).as("the fenced slot uses the only unavailability allowed").isTrue();
        assertThat(plan.refusals()).containsExactly("1 instance is already unavailable outside this rollout's scope and "
                + "maxUnavailable is 1: no instance can be taken down");
    }

    /** Issue 20: the disruption budget caps a raft store's waves at what keeps its quorum. */
    @Test
    void aRaftStoresWavesNeverTakeItsQuorumDown() {
        RolloutPlan etcd = planner.plan(new PlanRequest("x", 3, policy(p -> p.setMaxUnavailable("2")), allOld(3), NEW, Set.of(),
                false, false, List.of(), QuorumRule.MAJORITY));
        assertThat(etcd.waves()).containsExactly(List.of("x-2"), List.of("x-1"), List.of("x-0"));
        assertThat(etcd.maxUnavailable()).isEqualTo(1);
        assertThat(etcd.blockers()).contains("maxUnavailable 2 capped at 1 by the disruption budget (quorum 2 of 3, tolerates 1 down)");
        RolloutPlan generic = plan(3, p -> p.setMaxUnavailable("2"), allOld(3));
        assertThat(generic.waves()).containsExactly(List.of("x-2", "x-1"), List.of("x-0"));
    }

    @Test
    void descendingOrderVisitsTheHighestOrdinalFirstAndAscendingOrdinalZero() {
        assertThat(plan(3, p -> { }, allOld(3)).slotsToUpdate()).containsExactly("x-2", "x-1", "x-0");
        assertThat(plan(3, p -> p.setOrder(RolloutOrder.ORDINAL_ASCENDING), List.of(instance(2, OLD), instance(0, OLD), instance(1, OLD)))
                .waves()).containsExactly(List.of("x-0"), List.of("x-1"), List.of("x-2"));
    }

    @Test
    void aSurgeSlotIsAddedBeforeTheFirstWaveAndRemovedAfterTheLast() {
        RolloutPlan plan = plan(5, p -> { p.setMaxUnavailable("0"); p.setMaxSurge("1"); }, allOld(5));
        assertThat(plan.surgeSlots()).containsExactly("x-5");
        assertThat(plan.waves()).containsExactly(List.of("x-4"), List.of("x-3"), List.of("x-2"), List.of("x-1"), List.of("x-0"));
        assertThat(plan.steps().get(0)).isEqualTo(new PlannedStep(5, "x-5", RolloutAction.ADD_SURGE,
                "temporary extra instance (maxSurge 1): created on the target and admitted before any old instance goes down", 0));
        assertThat(plan.steps().get(6)).isEqualTo(new PlannedStep(5, "x-5", RolloutAction.REMOVE_SURGE,
                "temporary instance removed after the last wave", 6));
        assertThat(plan.blockers()).first().isEqualTo("wave 2 (x-3): waiting: 1 of 1 unavailable allowed (maxUnavailable 0 + maxSurge 1)");
        assertThat(plan.maxUnavailable()).isZero();
        assertThat(plan.maxSurge()).isEqualTo(1);
        assertThat(plan.actionsBySlot()).containsEntry("x-5", "ADD_SURGE");
    }

    @Test
    void noSurgeWhenNothingIsToDo() {
        RolloutPlan plan = plan(3, p -> p.setMaxSurge("2"), List.of(instance(0, NEW), instance(1, NEW), instance(2, NEW)));
        assertThat(plan.surgeSlots()).isEmpty();
        assertThat(plan.waves()).isEmpty();
        assertThat(plan.steps()).extracting(PlannedStep::reason).containsOnly("already runs the target compose");
        assertThat(plan.steps()).extracting(PlannedStep::wave).containsOnly(-1);
        assertThat(plan.summary()).contains("x-1").contains("Nothing to update");
    }

    @Test
    void percentagesResolveAgainstTheReplicas() {
        RolloutPlan plan = plan(10, p -> { p.setMaxUnavailable("25%"); p.setMaxSurge("25%"); }, allOld(10));
        assertThat(plan.maxUnavailable()).isEqualTo(2);
        assertThat(plan.maxSurge()).isEqualTo(3);
        assertThat(plan.surgeSlots()).containsExactly("x-10", "x-11", "x-12");
        assertThat(plan.waves()).containsExactly(List.of("x-9", "x-8", "x-7", "x-6", "x-5"), List.of("x-4", "x-3", "x-2", "x-1", "x-0"));
        // A percentage that rounds to 0 without surge still lets one instance go down at a time.
        assertThat(plan(3, p -> p.setMaxUnavailable("10%"), allOld(3)).waves()).hasSize(3);
    }

    @Test
    void partitionLeavesTheLowerOrdinalsAlone() {
        RolloutPlan plan = plan(5, p -> p.setPartition(3), allOld(5));
        assertThat(plan.waves()).containsExactly(List.of("x-4"), List.of("x-3"));
        assertThat(plan.steps().subList(2, 5)).extracting(PlannedStep::slot, PlannedStep::action, PlannedStep::reason)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("x-0", RolloutAction.NONE, "below partition 3"),
                        org.assertj.core.groups.Tuple.tuple("x-1", RolloutAction.NONE, "below partition 3"),
                        org.assertj.core.groups.Tuple.tuple("x-2", RolloutAction.NONE, "below partition 3"));
    }

    @Test
    void anExplicitTargetIgnoresPartitionAndOpportunistic() {
        UpdatePolicy policy = policy(p -> { p.setPartition(3); p.setType(UpdateType.OPPORTUNISTIC); });
        RolloutPlan plan = planner.plan(request(5, policy, allOld(5)).targeting(Set.of(0, 1)));
        assertThat(plan.waves()).containsExactly(List.of("x-1"), List.of("x-0"));
        assertThat(plan.steps()).filteredOn(s -> s.slot().equals("x-4")).singleElement()
                .extracting(PlannedStep::reason).isEqualTo("not targeted by this rollout");
        assertThatThrownBy(() -> planner.plan(request(5, policy, allOld(5)).targeting(Set.of(5))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("5");
    }

    @Test
    void opportunisticDefersEverySlot() {
        RolloutPlan plan = plan(3, p -> p.setType(UpdateType.OPPORTUNISTIC), List.of(instance(0, OLD), instance(1, NEW), instance(2, OLD)));
        assertThat(plan.waves()).isEmpty();
        assertThat(plan.blockers()).isEmpty();
        assertThat(plan.steps()).extracting(PlannedStep::reason).containsExactly(
                "deferred: OPPORTUNISTIC updates an instance when a heal replaces it, or when targeted",
                "already runs the target compose",
                "deferred: OPPORTUNISTIC updates an instance when a heal replaces it, or when targeted");
    }

    @Test
    void roleAwareUpdatesTheLeaderLastAndAlone() {
        RolloutPlan plan = plan(4, p -> { p.setOrder(RolloutOrder.ROLE_AWARE); p.setMaxUnavailable("2"); }, List.of(
                withRole(0, InstanceRole.REPLICA), withRole(1, InstanceRole.UNKNOWN), withRole(2, InstanceRole.LEADER),
                withRole(3, InstanceRole.REPLICA)));
        assertThat(plan.waves()).containsExactly(List.of("x-3", "x-1"), List.of("x-0"), List.of("x-2"));
        assertThat(plan.blockers()).doesNotContain(RolloutPlanner.NO_LEADER);
    }

    @Test
    void theLeadersStepAwaitsAnApprovalUnlessThePolicySaysOtherwise() {
        List<InstanceSnapshot> instances = List.of(withRole(0, InstanceRole.LEADER), withRole(1, InstanceRole.REPLICA),
                withRole(2, InstanceRole.REPLICA));
        RolloutPlan plan = plan(3, p -> p.setOrder(RolloutOrder.ROLE_AWARE), instances);
        assertThat(plan.waves()).last().isEqualTo(List.of("x-0"));
        assertThat(plan.leaderSteps()).containsExactly("x-0");
        assertThat(plan.blockers()).contains("waiting: approval before the leader's step (x-0)");

        RolloutPlan unapproved = plan(3, p -> { p.setOrder(RolloutOrder.ROLE_AWARE); p.setApproveLeader(false); }, instances);
        assertThat(unapproved.leaderSteps()).isEmpty();
        assertThat(unapproved.blockers()).noneMatch(b -> b.contains("leader's step"));
        // Without the role-aware order the planner does not ask for roles, so it knows no leader to wait for.
        assertThat(plan(3, p -> { }, instances).leaderSteps()).isEmpty();
    }

    @Test
    void roleAwareWithoutALeaderSaysSo() {
        RolloutPlan plan = plan(3, p -> p.setOrder(RolloutOrder.ROLE_AWARE), allOld(3));
        assertThat(plan.slotsToUpdate()).containsExactly("x-2", "x-1", "x-0");
        assertThat(plan.blockers()).contains("no leader reported by the role probe: replicas ordered by descending ordinal");
    }

    @Test
    void unavailableInstancesGoFirstAllTogether() {
        RolloutPlan plan = plan(5, p -> { }, List.of(instance(0, OLD), unavailable(1, OLD), instance(2, OLD), unavailable(3, OLD),
                instance(4, OLD)));
        assertThat(plan.waves()).containsExactly(List.of("x-3", "x-1"), List.of("x-4"), List.of("x-2"), List.of("x-0"));
        assertThat(plan.steps().get(0).reason()).endsWith(" (already unavailable: updated first)");
        assertThat(plan.steps().get(2).reason()).doesNotContain("already unavailable");
        assertThat(plan.blockers()).first().isEqualTo("wave 2 (x-4): waiting: 2 of 1 unavailable allowed");
    }

    @Test
    void instancesDownOutsideTheRolloutEatTheBudget() {
        List<InstanceSnapshot> instances = List.of(unavailable(0, OLD), instance(1, OLD), instance(2, OLD), instance(3, OLD));
        RolloutPlan plan = plan(4, p -> { p.setPartition(1); p.setMaxUnavailable("2"); }, instances);
        assertThat(plan.waves()).containsExactly(List.of("x-3"), List.of("x-2"), List.of("x-1"));
        assertThat(plan.blockers()).first().isEqualTo("wave 2 (x-2): waiting: 2 of 2 unavailable allowed");

        RolloutPlan refused = plan(4, p -> p.setPartition(1), instances);
        assertThat(refused.refusals()).containsExactly("1 instance is already unavailable outside this rollout's scope and "
                + "maxUnavailable is 1: no instance can be taken down");
        // A missing CVM is down too.
        assertThat(plan(3, p -> { }, List.of(instance(0, OLD), instance(1, OLD))).refusals()).hasSize(1);
    }

    @Test
    void minimalActionRestartRestartsInstancesAlreadyOnTheTarget() {
        RolloutPlan plan = plan(2, p -> p.setMinimalAction(UpdateAction.RESTART), List.of(instance(0, NEW), instance(1, NEW)));
        assertThat(plan.steps()).extracting(PlannedStep::action, PlannedStep::reason).containsOnly(org.assertj.core.groups.Tuple.tuple(
                RolloutAction.RESTART, "minimalAction RESTART: rolling restart, compose unchanged"));
        assertThat(plan.waves()).hasSize(2);
    }

    @Test
    void aReplacementBeyondTheAllowedActionIsRefusedButShown() {
        List<InstanceSnapshot> instances = List.of(instance(0, OLD),
                new InstanceSnapshot(1, "x-1", "cvm_1", "error", OLD, "hash1", false, InstanceRole.UNKNOWN));
        RolloutPlan plan = plan(2, p -> { }, instances);
        assertThat(plan.waves()).containsExactly(List.of("x-1"), List.of("x-0"));
        assertThat(plan.steps().get(0).action()).isEqualTo(RolloutAction.REPLACE);
        assertThat(plan.refusals()).singleElement().asString().startsWith("x-1: needs REPLACE (status error: cannot be updated in place")
                .endsWith("), which exceeds mostDisruptiveAllowedAction RESTART");
        assertThat(plan.summary()).contains("REFUSED: x-1: needs REPLACE");
        assertThat(plan(2, p -> p.setMostDisruptiveAllowedAction(UpdateAction.REPLACE), instances).refused()).isFalse();
    }

    @Test
    void blockersComeInOrder() {
        UpdatePolicy policy = policy(p -> p.setMinReadySeconds(30));
        RolloutPlan plan = planner.plan(new PlanRequest("x", 2, policy, allOld(2), NEW, Set.of(), true, true));
        assertThat(plan.blockers()).containsExactly(
                "waiting: approval before the rollout",
                "wave 2 (x-0): waiting: 1 of 1 unavailable allowed",
                "waiting: min ready 30 s after each instance is healthy",
                "waiting: approval between waves");
    }

    @Test
    void stepsRunSurgeThenWavesThenSurgeRemovalThenTheSlotsLeftAlone() {
        List<InstanceSnapshot> instances = new ArrayList<>(allOld(4));
        instances.set(2, instance(2, NEW));
        RolloutPlan plan = plan(4, p -> p.setMaxSurge("1"), instances);
        assertThat(plan.steps()).extracting(PlannedStep::slot, PlannedStep::action).containsExactly(
                org.assertj.core.groups.Tuple.tuple("x-4", RolloutAction.ADD_SURGE),
                org.assertj.core.groups.Tuple.tuple("x-3", RolloutAction.RESTART),
                org.assertj.core.groups.Tuple.tuple("x-1", RolloutAction.RESTART),
                org.assertj.core.groups.Tuple.tuple("x-0", RolloutAction.RESTART),
                org.assertj.core.groups.Tuple.tuple("x-4", RolloutAction.REMOVE_SURGE),
                org.assertj.core.groups.Tuple.tuple("x-2", RolloutAction.NONE));
        assertThat(plan.waves()).containsExactly(List.of("x-3", "x-1"), List.of("x-0"));
    }

    @Test
    void emptySlotsAndExtraCvmsAreNotUpdated() {
        RolloutPlan plan = plan(2, p -> p.setMaxUnavailable("2"), List.of(instance(0, OLD), instance(5, OLD)));
        assertThat(plan.slotsToUpdate()).containsExactly("x-0");
        assertThat(plan.steps()).hasSize(2);
        assertThat(plan.steps().get(1)).isEqualTo(new PlannedStep(1, "x-1", RolloutAction.NONE,
                "no CVM in this slot (healing or scaling creates it)", -1));
    }

    @Test
    void composesThatDifferOnlyInLineEndingsAreTheSame() {
        RolloutPlan plan = plan(3, p -> { }, List.of(instance(0, OLD), instance(1, NEW.replace("\n", "\r\n") + "  \n"), instance(2, OLD)));
        assertThat(plan.slotsToUpdate()).containsExactly("x-2", "x-0");
        assertThat(plan.steps().get(2)).isEqualTo(new PlannedStep(1, "x-1", RolloutAction.NONE, "already runs the target compose", -1));
    }

    @Test
    void anEmptyTargetOrAnInvalidPolicyIsRefused() {
        assertThatThrownBy(() -> planner.plan(new PlanRequest("x", 1, new UpdatePolicy(), List.of(), "  \n", Set.of(), false, false)))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("dockerCompose: the target compose is empty");
        assertThatThrownBy(() -> plan(1, p -> p.setPartition(2), List.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("updatePolicy.partition");
    }
}
