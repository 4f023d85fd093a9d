package com.statefulcvm.simulator.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

/**
 * The 202 answer of an update in versions 2025-10-28 and 2026-01-21 (SDK {@code UpdateDockerComposeInProgressSchema},
 * {@code UpdateCvmEnvsInProgressSchema}): a {@code message}; {@code allowed_envs_changed} only for env updates.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record LegacyUpdateResult(String status, String message, String correlationId, Boolean allowedEnvsChanged) {
}
