package com.statefulcvm.simulator.cloud;

import java.time.Instant;
import java.util.Map;

/** What {@code POST /cvms/provision} remembers until the commit. */
record PendingProvision(
        String appId,
        String name,
        Map<String, Object> compose,
        String composeHash,
        String instanceType,
        int diskSize,
        int nodeId,
        String region,
        String envPubkey,
        Instant createdAt) {
}
