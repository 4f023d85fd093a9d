package com.statefulcvm.connectors.phala.model;

public record Revision(
        String revisionId,
        String appId,
        String vmUuid,
        String composeHash,
        String createdAt,
        String operationType,
        String triggeredBy) {
}
