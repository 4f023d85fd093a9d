package com.statefulcvm.simulator.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
/** {@code GET /cvms/{cvm_id}/state}. */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.ALWAYS)
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
