package com.statefulcvm.simulator.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

/**
 * {@code GET /cvms/{cvm_id}/state} in versions 2025-10-28 and 2026-01-21 (SDK {@code CvmStateSchema}): fields
 * without a value are left out (the SDK takes them as optional strings, never null); {@code id} is the vm_uuid.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record LegacyCvmState(
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
