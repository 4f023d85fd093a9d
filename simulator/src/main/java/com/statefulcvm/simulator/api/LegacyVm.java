package com.statefulcvm.simulator.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;

/**
 * The VM record that versions 2025-10-28 and 2026-01-21 answer to {@code POST /cvms} (SDK
 * {@code CommitCvmProvisionSchema}), to the lifecycle calls and to {@code POST /apps/{app_id}/instances} (SDK
 * {@code VMSchema}): integer {@code id}, {@code teepod_id}, {@code memory} in MB.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.ALWAYS)
public record LegacyVm(
        long id,
        String name,
        String status,
        int teepodId,
        LegacyNode teepod,
        Integer userId,
        String appId,
        String vmUuid,
        String instanceId,
        String appUrl,
        String baseImage,
        int vcpu,
        int memory,
        int diskSize,
        Integer manifestVersion,
        String version,
        String runner,
        String dockerComposeFile,
        List<String> features,
        String createdAt,
        String encryptedEnvPubkey) {
}
