package com.statefulcvm.simulator.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

/**
 * {@code GET /apps/{app_id}/revisions/{revision_id}} in version 2026-05-22: a revision with its compose, the
 * encrypted env it was deployed with and the user config.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.ALWAYS)
public record RevisionDetail(
        String revisionId,
        String appId,
        String vmUuid,
        String composeHash,
        Object composeFile,
        String encryptedEnv,
        String userConfig,
        String createdAt,
        String operationType,
        String triggeredBy) {
}
