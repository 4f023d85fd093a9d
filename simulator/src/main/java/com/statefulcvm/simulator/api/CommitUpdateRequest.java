package com.statefulcvm.simulator.api;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

/** {@code POST /cvms/{cvm_id}/commit-update} (SDK {@code commitCvmUpdate}). */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
public record CommitUpdateRequest(String token, String composeHash, String transactionHash) {
}
