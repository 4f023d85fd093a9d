package com.statefulcvm.fleet.rollout;

import com.statefulcvm.fleet.UpdatePolicy;
import com.statefulcvm.fleet.UpdateAction;
import com.statefulcvm.fleet.InstanceRole;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/** Env rollouts in the planner: an env change is an in-place update of every instance in scope, named by keys only. */
class RolloutPlannerEnvTest {

    private static final String COMPOSE = "services:\n  web:\n    image: nginx:1.27\n";
    private static final String OTHER = "services:\n  web:\n    image: nginx:1.26\n";
    private static final List<String> KEYS = List.of("DB_PASSWORD", "GREETING");
    private final RolloutPlanner planner = new RolloutPlanner();

    private static List<InstanceSnapshot> running(int replicas, String compose) {
        return IntStream.range(0, replicas).mapToObj(i -> new InstanceSnapshot(i, "x-" + i, "cvm_" + i, "running", compose,
                "1a2b3c4d5e6f7890" + i, true, InstanceRole.UNKNOWN)).toList();
    }

    private RolloutPlan plan(UpdatePolicy policy, List<InstanceSnapshot> instances, String target, List<String> keys) {
        return planner.plan(new PlanRequest("x", instances.size(), policy, instances, target, Set.of(), false, false).withEnvKeys(keys));
    }

    @Test
    void anEnvOnlyChangeRestartsEveryInstanceInWavesWithTheKeysAsReason() {
        RolloutPlan plan = plan(new UpdatePolicy(), running(3, COMPOSE), COMPOSE, KEYS);

        assertThat(plan.waves()).containsExactly(List.of("x-2"), List.of("x-1"), List.of("x-0"));
        assertThat(plan.steps()).extracting(PlannedStep::action).containsOnly(RolloutAction.RESTART);
        assertThat(plan.steps().get(0).reason())
                .isEqualTo("env change (DB_PASSWORD, GREETING): the environment is replaced in full, compose unchanged");
        assertThat(plan.refused()).isFalse();
    }

    @Test
    void withoutAnEnvChangeTheSameComposeIsNothingToDo() {
        RolloutPlan plan = plan(new UpdatePolicy(), running(2, COMPOSE), COMPOSE, List.of());
        assertThat(plan.waves()).isEmpty();
        assertThat(plan.steps()).extracting(PlannedStep::reason).containsOnly(RolloutPlanner.ON_TARGET);
    }

    @Test
    void aComposeAndEnvChangeSaysBoth() {
        RolloutPlan plan = plan(new UpdatePolicy(), running(1, OTHER), COMPOSE, List.of("TOKEN"));
        assertThat(plan.steps().get(0).reason()).isEqualTo("compose differs from the target (now 1a2b3c4d5e6f, status running); "
                + "env change (TOKEN): the environment is replaced in full");
    }

    @Test
    void partitionAndTheMostDisruptiveAllowedActionApplyToEnvChangesToo() {
        UpdatePolicy partitioned = new UpdatePolicy();
        partitioned.setPartition(2);
        assertThat(plan(partitioned, running(3, COMPOSE), COMPOSE, KEYS).slotsToUpdate()).containsExactly("x-2");

        UpdatePolicy refreshOnly = new UpdatePolicy();
        refreshOnly.setMostDisruptiveAllowedAction(UpdateAction.REFRESH);
        RolloutPlan refused = plan(refreshOnly, running(1, COMPOSE), COMPOSE, KEYS);
        assertThat(refused.refusals()).singleElement().asString()
                .startsWith("x-0: needs RESTART (env change (DB_PASSWORD, GREETING)");
    }

    @Test
    void theSummaryNamesKeysAndNothingElse() {
        String summary = plan(new UpdatePolicy(), running(2, COMPOSE), COMPOSE, KEYS).summary();
        assertThat(summary).contains("env change (DB_PASSWORD, GREETING)");
    }
}
