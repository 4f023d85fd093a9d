package com.statefulcvm.fleet;

public record PlannedStep(int ordinal, String slot, RolloutAction action, String reason) {
}
