package com.statefulcvm.simulator.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
/** {@code POST /cvms/provision}: what the commit needs. */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.ALWAYS)
public record ProvisionResult(
        String appId,
        String composeHash,
        String appEnvEncryptPubkey,
        String osImageHash,
        String instanceType,
        int teepodId,
        String kmsId,
        KmsInfo kmsInfo,
        String deviceId) {
}
