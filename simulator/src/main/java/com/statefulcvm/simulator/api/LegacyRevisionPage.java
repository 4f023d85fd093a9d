package com.statefulcvm.simulator.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;

/**
 * {@code GET /apps/{app_id}/revisions} in versions 2025-10-28 and 2026-01-21 (SDK {@code AppRevisionsResponseSchema}):
 * {@code triggered_by} is a user reference, each revision names its CVM and workspace.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.ALWAYS)
public record LegacyRevisionPage(List<Revision> revisions, int total, int page, int pageSize, int totalPages) {

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record Revision(
            String revisionId,
            String appId,
            String vmUuid,
            String composeHash,
            String createdAt,
            String traceId,
            String operationType,
            Refs.UserRef triggeredBy,
            Refs.CvmRef cvm,
            Refs.WorkspaceRef workspace) {
    }

    /** {@code GET /apps/{app_id}/revisions/{revision_id}} (SDK {@code AppRevisionDetailResponseSchema}). */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record Detail(
            String revisionId,
            String appId,
            String vmUuid,
            String composeHash,
            Object composeFile,
            String encryptedEnv,
            String userConfig,
            String createdAt,
            String traceId,
            String operationType,
            Refs.UserRef triggeredBy,
            Refs.CvmRef cvm,
            Refs.WorkspaceRef workspace) {
    }
}
