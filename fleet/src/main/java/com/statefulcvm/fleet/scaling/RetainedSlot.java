package com.statefulcvm.fleet.scaling;

import java.time.Instant;

/**
 * A slot a scale-down took out of the set with its CVM stopped and kept (scaling.scaleDown RETAIN): its disk and
 * identity wait for a scale-up of the same slot. It is not part of the set: no rollout, health check or heal touches it.
 */
public record RetainedSlot(String replicaSet, int ordinal, String slot, String cvmId, String instanceId, String retainedBy,
                           Instant retainedAt) {
}
