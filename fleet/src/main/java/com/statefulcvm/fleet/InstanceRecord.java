package com.statefulcvm.fleet;

import java.time.Instant;

/**
 * The registry's row for one slot: which CVM fills it and what was last observed of it. {@code healthy} is null
 * until the first probe; {@code attested} is null until the CVM's current boot has been attested, and holds the
 * verdict (with {@code attestation}, its reason) until the CVM stops, restarts, updates or is replaced.
 */
public record InstanceRecord(String replicaSet, int ordinal, String slot, String cvmId, String vmUuid, String instanceId,
                             String composeHash, String status, Boolean healthy, String condition, Instant observedAt,
                             Boolean attested, String attestation, Instant attestedAt) {

    public static InstanceRecord emptySlot(String replicaSet, int ordinal) {
        return new InstanceRecord(replicaSet, ordinal, Slots.name(replicaSet, ordinal), null, null, null, null, null, null,
                null, null, null, null, null);
    }

    public boolean ready() {
        return "running".equals(status) && Boolean.TRUE.equals(healthy);
    }

    public InstanceRecord withHealth(boolean healthy, String condition, Instant at) {
        return new InstanceRecord(replicaSet, ordinal, slot, cvmId, vmUuid, instanceId, composeHash, status, healthy, condition, at,
                attested, attestation, attestedAt);
    }

    public InstanceRecord withCondition(String condition, Instant at) {
        return new InstanceRecord(replicaSet, ordinal, slot, cvmId, vmUuid, instanceId, composeHash, status, healthy, condition, at,
                attested, attestation, attestedAt);
    }

    public InstanceRecord withAttestation(boolean attested, String attestation, Instant at) {
        return new InstanceRecord(replicaSet, ordinal, slot, cvmId, vmUuid, instanceId, composeHash, status, healthy, condition,
                observedAt, attested, attestation, at);
    }

    /** The attested boot is over (a restart nobody asked for): no verdict and no known health until it is attested again. */
    public InstanceRecord withoutAttestation(String condition, Instant at) {
        return new InstanceRecord(replicaSet, ordinal, slot, cvmId, vmUuid, instanceId, composeHash, status, null, condition, at,
                null, null, null);
    }
}
