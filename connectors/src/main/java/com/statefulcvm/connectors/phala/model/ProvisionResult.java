package com.statefulcvm.connectors.phala.model;

public record ProvisionResult(
        String appId,
        String composeHash,
        String appEnvEncryptPubkey,
        String osImageHash,
        String instanceType,
        String nodeId) {
}
