package com.statefulcvm.simulator.api;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;

/**
 * {@code PATCH /cvms/{cvm_id}/envs}: a full replacement of the encrypted environment; {@code compose_hash} and
 * {@code transaction_hash} in phase 2 of an on-chain KMS app whose {@code env_keys} change (SDK {@code updateCvmEnvs}).
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
public record EnvUpdateRequest(String encryptedEnv, List<String> envKeys, String composeHash, String transactionHash) {

    public EnvUpdateRequest(String encryptedEnv, List<String> envKeys) {
        this(encryptedEnv, envKeys, null, null);
    }
}
