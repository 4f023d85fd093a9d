package com.statefulcvm.fleet;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RolloutPlannerTest {

    private static final String OLD = "services:\n  web:\n    image: nginx:1.26\n";
    private static final String NEW = "services:\n  web:\n    image: nginx:1.27\n";
    private final RolloutPlanner planner = new RolloutPlanner();

    private static InstanceSnapshot instance(int ordinal, String compose) {
        return new InstanceSnapshot(ordinal, "webdemo-" + ordinal, "cvm_" + ordinal, "running", compose, "hash" + ordinal);
    }

    private static ReplicaSetSpec set(int replicas, RolloutOrder order) {
        ReplicaSetSpec set = FleetValidatorTest.validSet("webdemo");
        set.setReplicas(replicas);
        set.getUpdatePolicy().setOrder(order);
        return set;
    }

    @Test
    void descendingOrderVisitsTheHighestOrdinalFirst() {
        RolloutPlan plan = planner.plan(set(3, RolloutOrder.ORDINAL_DESCENDING),
                List.of(instance(0, OLD), instance(1, OLD), instance(2, OLD)), NEW);
        assertThat(plan.slotsToUpdate()).containsExactly("webdemo-2", "webdemo-1", "webdemo-0");
        assertThat(plan.steps()).extracting(PlannedStep::reason).allMatch(r -> r.startsWith("compose differs"));
    }

    @Test
    void ascendingOrderVisitsOrdinalZeroFirst() {
        RolloutPlan plan = planner.plan(set(3, RolloutOrder.ORDINAL_ASCENDING),
                List.of(instance(2, OLD), instance(0, OLD), instance(1, OLD)), NEW);
        assertThat(plan.slotsToUpdate()).containsExactly("webdemo-0", "webdemo-1", "webdemo-2");
    }

    @Test
    void instancesAlreadyOnTheTargetAreSkippedWithAReason() {
        RolloutPlan plan = planner.plan(set(3, RolloutOrder.ORDINAL_DESCENDING),
                List.of(instance(0, OLD), instance(1, NEW.replace("\n", "\r\n") + "  \n"), instance(2, OLD)), NEW);
        assertThat(plan.slotsToUpdate()).containsExactly("webdemo-2", "webdemo-0");
        assertThat(plan.steps().get(1)).isEqualTo(new PlannedStep(1, "webdemo-1", RolloutAction.SKIP, "already runs the target compose"));
    }

    @Test
    void emptySlotsAndExtraCvmsAreNotUpdated() {
        RolloutPlan plan = planner.plan(set(2, RolloutOrder.ORDINAL_DESCENDING),
                List.of(instance(0, OLD), instance(5, OLD)), NEW);
        assertThat(plan.slotsToUpdate()).containsExactly("webdemo-0");
        assertThat(plan.steps()).hasSize(2);
        assertThat(plan.steps().get(0).reason()).contains("no CVM in this slot");
    }

    @Test
    void summaryListsEveryStepAndSaysWhenNothingIsToDo() {
        RolloutPlan plan = planner.plan(set(2, RolloutOrder.ORDINAL_DESCENDING), List.of(instance(0, NEW), instance(1, NEW)), NEW);
        assertThat(plan.summary()).contains("webdemo-1").contains("webdemo-0").contains("Nothing to update");
    }

    @Test
    void anEmptyTargetIsRefused() {
        assertThatThrownBy(() -> planner.plan(set(1, RolloutOrder.ORDINAL_DESCENDING), List.of(), "  \n"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("dockerCompose");
    }
}
