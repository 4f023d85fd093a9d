package com.statefulcvm.simulator.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
/** One entry of the {@code POST /status/batch} answer. */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.ALWAYS)
public record BatchStatus(
        String vmUuid,
        String status,
        String uptime,
        boolean inProgress,
        String bootProgress,
        String bootError,
        String operationType,
        String operationStartedAt,
        String correlationId) {
}
