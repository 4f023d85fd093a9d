package com.statefulcvm.fleet.scaling;

import org.junit.jupiter.api.Test;

import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class ScalePlanTest {

    @Test
    void upAddsTheNextOrdinalsLowestFirst() {
        ScalePlan plan = ScalePlan.of(3, 5, 3, Set.of(0, 1, 2));
        assertThat(plan.direction()).isEqualTo(ScalePlan.Direction.UP);
        assertThat(plan.toAdd()).containsExactly(3, 4);
        assertThat(plan.toRemove()).isEmpty();
        assertThat(plan.needsApproval()).isFalse();
        assertThat(plan.summary("kv")).isEqualTo("scale kv up from 3 to 5 replicas: add kv-3, kv-4");
    }

    @Test
    void downRemovesHighestFirstAndNeedsApprovalOnlyBelowTheMinimum() {
        ScalePlan plan = ScalePlan.of(5, 3, 3, Set.of(0, 1, 2, 3, 4));
        assertThat(plan.direction()).isEqualTo(ScalePlan.Direction.DOWN);
        assertThat(plan.toRemove()).containsExactly(4, 3);
        assertThat(plan.needsApproval()).isFalse();
        ScalePlan below = ScalePlan.of(3, 1, 3, Set.of(0, 1, 2));
        assertThat(below.toRemove()).containsExactly(2, 1);
        assertThat(below.needsApproval()).isTrue();
        assertThat(below.summary("kv")).endsWith("below the workload's minimum of 3, an operator must approve");
    }

    @Test
    void cvmsLeftAboveTheCountAreRemovedAndNothingElseIsANoOp() {
        // the fleet file's count went down from 4 to 3 (the file won): kv-3 still runs and is not part of the set
        ScalePlan strays = ScalePlan.of(3, 3, 3, Set.of(0, 1, 2, 3));
        assertThat(strays.direction()).isEqualTo(ScalePlan.Direction.DOWN);
        assertThat(strays.toRemove()).containsExactly(3);
        ScalePlan none = ScalePlan.of(3, 3, 3, Set.of(0, 1, 2));
        assertThat(none.direction()).isEqualTo(ScalePlan.Direction.NONE);
        assertThat(none.summary("kv")).isEqualTo("kv has 3 replicas already and no CVM above them: nothing to change");
    }

    @Test
    void badCountsAreRefusedNamingTheField() {
        assertThat(ScalePlan.refusal(null, 10)).contains("replicas: is required, a whole number from 1 to 10");
        assertThat(ScalePlan.refusal(0, 10)).contains("replicas: must be at least 1 (was 0); a replica set is never scaled to zero");
        assertThat(ScalePlan.refusal(-2, 10)).contains("replicas: must be at least 1 (was -2); a replica set is never scaled to zero");
        assertThat(ScalePlan.refusal(11, 10)).contains("replicas: must not exceed 10 (scaling.maxReplicas) (was 11)");
        assertThat(ScalePlan.refusal("5", 10)).contains("replicas: must be a whole number from 1 to 10 (was '5')");
        assertThat(ScalePlan.refusal(2.5, 10)).contains("replicas: must be a whole number from 1 to 10 (was 2.5 of type Double)");
        assertThat(ScalePlan.refusal(4, 10)).isEmpty();
    }
}
