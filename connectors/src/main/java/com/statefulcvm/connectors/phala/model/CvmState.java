package com.statefulcvm.connectors.phala.model;

public record CvmState(
        String id,
        String instanceId,
        String name,
        String status,
        String uptime,
        String exitedAt,
        String bootProgress,
        String bootError,
        String shutdownProgress) {
}
