package com.statefulcvm.simulator.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;

/** {@code GET /apps/{app_id}/revisions}: newest first. */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.ALWAYS)
public record RevisionPage(List<Revision> revisions, int total, int page, int pageSize, int totalPages) {

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record Revision(
            String revisionId,
            String appId,
            String vmUuid,
            String composeHash,
            String createdAt,
            String operationType,
            String triggeredBy) {
    }
}
