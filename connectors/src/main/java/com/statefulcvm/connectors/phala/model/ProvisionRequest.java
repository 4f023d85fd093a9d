package com.statefulcvm.connectors.phala.model;

public record ProvisionRequest(
        String name,
        String instanceType,
        ComposeFile composeFile,
        Integer diskSize,
        String nodeId,
        String region,
        String image) {
}
