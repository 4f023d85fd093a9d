package com.statefulcvm.fleet.rollout;

import java.util.List;

/**
 * The planner's answer. {@code steps}: every row in execution order (surge additions, the waves in order, surge
 * removals, then the slots left alone with their reasons). {@code waves}: the slot names of each wave, in order; a
 * wave's slots go down together and the next wave starts when all of them are ready again. {@code surgeSlots}: the
 * temporary slots, added before the first wave and removed after the last. {@code blockers}: what will hold actions
 * back ("waiting: approval", "waiting: 1 of 1 unavailable allowed", "waiting: min ready 30 s"). {@code refusals}:
 * why the rollout must not run at all (an action beyond mostDisruptiveAllowedAction); the executor refuses when any.
 * {@code leaderSteps}: the leader slots an operator approves just before their wave (approveLeader), each alone in its
 * wave; empty when the policy does not ask for it or the plan knows no leader.
 */
public record RolloutPlan(String replicaSet, List<PlannedStep> steps, List<List<String>> waves, List<String> surgeSlots,
                          List<String> blockers, List<String> refusals, int maxUnavailable, int maxSurge,
                          List<String> leaderSteps) {

    public RolloutPlan {
        steps = List.copyOf(steps);
        waves = waves.stream().map(List::copyOf).toList();
        surgeSlots = List.copyOf(surgeSlots);
        blockers = List.copyOf(blockers);
        refusals = List.copyOf(refusals);
        leaderSteps = List.copyOf(leaderSteps);
    }

    public boolean refused() {
        return !refusals.isEmpty();
    }

    /** The same plan, refused for one more reason (one the planner cannot know, such as the workspace's quotas). */
    public RolloutPlan withRefusal(String refusal) {
        List<String> more = new java.util.ArrayList<>(refusals);
        more.add(refusal);
        return new RolloutPlan(replicaSet, steps, waves, surgeSlots, blockers, more, maxUnavailable, maxSurge, leaderSteps);
    }

    /** The slots that the waves touch, in execution order. */
    public List<String> slotsToUpdate() {
        return waves.stream().flatMap(List::stream).toList();
    }

    /** The action of each slot that runs (surge slots included). */
    public java.util.Map<String, String> actionsBySlot() {
        java.util.Map<String, String> actions = new java.util.LinkedHashMap<>();
        steps.stream().filter(s -> s.action() != RolloutAction.NONE).forEach(s -> actions.putIfAbsent(s.slot(), s.action().name()));
        return actions;
    }

    /** A text an approver can read in Tasklist. */
    public String summary() {
        StringBuilder text = new StringBuilder();
        int n = 1;
        for (PlannedStep step : steps) {
            String wave = step.wave() < 0 ? "-" : step.wave() == 0 ? "surge" : "wave " + step.wave();
            text.append(String.format("%d. %-8s %-24s %-13s %s%n", n++, wave, step.slot(), step.action(), step.reason()));
        }
        if (waves.isEmpty()) {
            text.append("Nothing to update.\n");
        }
        refusals.forEach(r -> text.append("REFUSED: ").append(r).append('\n'));
        blockers.forEach(b -> text.append(b).append('\n'));
        return text.toString();
    }
}
