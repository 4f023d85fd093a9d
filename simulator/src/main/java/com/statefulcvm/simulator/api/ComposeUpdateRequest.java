package com.statefulcvm.simulator.api;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
/** {@code PATCH /cvms/{cvm_id}/docker-compose} as JSON. */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
public record ComposeUpdateRequest(String dockerComposeFile, String preLaunchScript) {
}
