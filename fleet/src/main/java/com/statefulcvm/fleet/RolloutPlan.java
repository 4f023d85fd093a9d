package com.statefulcvm.fleet;

import java.util.List;

/** The ordered steps of one rollout; the executor (the BPMN process) visits {@link #slotsToUpdate()} in order. */
public record RolloutPlan(String replicaSet, List<PlannedStep> steps) {

    public RolloutPlan {
        steps = List.copyOf(steps);
    }

    public List<String> slotsToUpdate() {
        return steps.stream().filter(s -> s.action() == RolloutAction.UPDATE_COMPOSE).map(PlannedStep::slot).toList();
    }

    /** A text an approver can read in Tasklist. */
    public String summary() {
        StringBuilder text = new StringBuilder();
        int n = 1;
        for (PlannedStep step : steps) {
            text.append(String.format("%d. %-24s %-15s %s%n", n++, step.slot(), step.action(), step.reason()));
        }
        if (slotsToUpdate().isEmpty()) {
            text.append("Nothing to update: every instance already runs the target compose.\n");
        }
        return text.toString();
    }
}
