package com.statefulcvm.connectors.phala.model;

public record BatchStatus(
        String vmUuid,
        String status,
        String uptime,
        Boolean inProgress,
        String bootProgress,
        String bootError,
        String operationType,
        String operationStartedAt,
        String correlationId) {
}
