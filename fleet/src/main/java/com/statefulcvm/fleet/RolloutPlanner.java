package com.statefulcvm.fleet;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * Current state + policy → ordered steps with reasons. It decides nothing about time; the rollout process executes
 * the plan (a planner separate from the executor, as in the StatefulSet controller).
 */
public class RolloutPlanner {

    public RolloutPlan plan(ReplicaSetSpec set, Collection<InstanceSnapshot> instances, String targetCompose) {
        if (ComposeText.normalize(targetCompose).isEmpty()) {
            throw new IllegalArgumentException("dockerCompose: the target compose is empty");
        }
        Map<Integer, InstanceSnapshot> byOrdinal = instances.stream()
                .collect(Collectors.toMap(InstanceSnapshot::ordinal, Function.identity(), (a, b) -> a));
        Comparator<Integer> order = set.getUpdatePolicy().getOrder().ordinals();
        List<PlannedStep> steps = new ArrayList<>();
        IntStream.range(0, set.getReplicas()).boxed().sorted(order)
                .forEach(ordinal -> steps.add(step(set, ordinal, byOrdinal.get(ordinal), targetCompose)));
        return new RolloutPlan(set.getName(), steps);
    }

    private PlannedStep step(ReplicaSetSpec set, int ordinal, InstanceSnapshot instance, String targetCompose) {
        String slot = set.slotName(ordinal);
        if (instance == null || instance.cvmId() == null) {
            return new PlannedStep(ordinal, slot, RolloutAction.SKIP, "no CVM in this slot (healing or scaling creates it)");
        }
        if (ComposeText.same(instance.dockerCompose(), targetCompose)) {
            return new PlannedStep(ordinal, slot, RolloutAction.SKIP, "already runs the target compose");
        }
        return new PlannedStep(ordinal, slot, RolloutAction.UPDATE_COMPOSE,
                "compose differs from the target (now " + shortHash(instance.composeHash()) + ", status " + instance.status() + ")");
    }

    private static String shortHash(String hash) {
        return hash == null ? "unknown" : hash.substring(0, Math.min(12, hash.length()));
    }
}
