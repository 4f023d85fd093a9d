package com.statefulcvm.simulator.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
/** The 202 answer of an asynchronous update. */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.ALWAYS)
public record UpdateResult(String status, String correlationId, boolean requiresOnChainHash) {

    public static final String IN_PROGRESS = "in_progress";

    public static UpdateResult inProgress(String correlationId) {
        return new UpdateResult(IN_PROGRESS, correlationId, false);
    }
}
