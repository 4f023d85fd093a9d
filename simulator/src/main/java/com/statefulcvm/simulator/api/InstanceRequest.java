package com.statefulcvm.simulator.api;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
/**
 * {@code POST /apps/{app_id}/instances}: a new named CVM under an existing app. Every field is optional; {@code
 * token} and {@code transaction_hash} are the commit of an on-chain KMS app's new instance (SDK {@code
 * CreateAppInstanceRequestSchema}; the CLI's {@code instances add --commit}).
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
public record InstanceRequest(
        String name,
        Integer nodeId,
        String dockerComposeFile,
        String preLaunchScript,
        String encryptedEnv,
        String composeHash,
        String token,
        String transactionHash) {

    public static InstanceRequest named(String name) {
        return new InstanceRequest(name, null, null, null, null, null, null, null);
    }

    public static InstanceRequest empty() {
        return new InstanceRequest(null, null, null, null, null, null, null, null);
    }
}
