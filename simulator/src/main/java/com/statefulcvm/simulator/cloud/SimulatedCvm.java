package com.statefulcvm.simulator.cloud;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/** One simulated CVM. Mutable; every access goes through {@link SimulatedCloud}'s lock. */
final class SimulatedCvm {

    /** The integer id of the API versions before 2026-05-22: a sequence number, never reused. */
    long seq;
    /** The hashed id {@code cvm_…} of API version 2026-05-22. */
    String id;
    String name;
    String appId;
    String vmUuid;
    /** Assigned when the CVM first boots; kept for its whole life. */
    String instanceId;
    String status;
    /** The operation in flight, or null when settled. */
    Operation operation;

    Map<String, Object> composeFile;
    String composeHash;
    String encryptedEnv;
    List<String> envKeys;

    String instanceType;
    int diskSize;
    int nodeId;
    String region;
    String storageFs;
    String internalIp;

    /** The workload's health as the gateway reports it when running; sticky across restarts. */
    boolean healthy = true;

    Instant createdAt;
    Instant updatedAt;
    Instant bootedAt;
    Instant exitedAt;

    SimulatedCvm() {
        // for the state file
    }

    boolean settled() {
        return operation == null;
    }

    /** By the hashed id, the integer id, the name or the vm_uuid (with or without dashes). */
    boolean matches(String ref) {
        if (ref.equals(id) || ref.equals(name) || (seq > 0 && ref.equals(Long.toString(seq)))) {
            return true;
        }
        String compact = ref.replace("-", "");
        return compact.length() == 32 && compact.equalsIgnoreCase(vmUuid.replace("-", ""));
    }
}
