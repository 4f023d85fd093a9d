package com.statefulcvm.fleet;

/** What the planner needs to know of one slot's CVM as observed now. */
public record InstanceSnapshot(int ordinal, String slot, String cvmId, String status, String dockerCompose, String composeHash) {
}
