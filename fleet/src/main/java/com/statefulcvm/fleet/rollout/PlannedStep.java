package com.statefulcvm.fleet.rollout;

/**
 * One row of a plan. {@code wave} is the 1-based round the step runs in (surge additions run in round 0 before the
 * first wave); -1 for a step that does not run (action NONE).
 */
public record PlannedStep(int ordinal, String slot, RolloutAction action, String reason, int wave) {
}
