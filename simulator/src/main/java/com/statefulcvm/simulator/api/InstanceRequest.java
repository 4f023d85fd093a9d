package com.statefulcvm.simulator.api;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
/** {@code POST /apps/{app_id}/instances}: a new named CVM under an existing app. Every field is optional. */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
public record InstanceRequest(
        String name,
        Integer nodeId,
        String dockerComposeFile,
        String preLaunchScript,
        String encryptedEnv,
        String composeHash) {

    public static InstanceRequest empty() {
        return new InstanceRequest(null, null, null, null, null, null);
    }
}
