package com.statefulcvm.fleet.rollout;

import com.statefulcvm.fleet.InstanceRole;

/**
 * What the planner needs to know of one slot's CVM as observed now. {@code available}: running, settled and last
 * probed healthy (an instance that is not available is already a disruption the rollout does not add to).
 * {@code fenced}: the slot's fence ("fenced (stopped): attestation failed: ..."), null when it has none; a fenced slot
 * is never updated or counted available, whatever its CVM shows, until an operator readmits it.
 */
public record InstanceSnapshot(int ordinal, String slot, String cvmId, String status, String dockerCompose,
                               String composeHash, boolean available, InstanceRole role, String fenced) {

    public InstanceSnapshot {
        available = available && fenced == null;
    }

    public InstanceSnapshot(int ordinal, String slot, String cvmId, String status, String dockerCompose,
                            String composeHash, boolean available, InstanceRole role) {
        this(ordinal, slot, cvmId, status, dockerCompose, composeHash, available, role, null);
    }
}
