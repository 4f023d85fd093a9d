package com.statefulcvm.simulator.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;

/** {@code GET /cvms/{cvm_id}} in version 2025-10-28 (SDK {@code CvmDetailV20251028Schema}): integer {@code id}. */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.ALWAYS)
public record CvmDetailV20251028(
        long id,
        String name,
        String status,
        boolean inProgress,
        Integer teepodId,
        LegacyNode teepod,
        String appId,
        String vmUuid,
        String instanceId,
        int vcpu,
        int memory,
        int diskSize,
        String baseImage,
        String encryptedEnvPubkey,
        boolean listed,
        String projectId,
        String projectType,
        String instanceType,
        boolean publicSysinfo,
        boolean publicLogs,
        String dappDashboardUrl,
        String syslogEndpoint,
        KmsInfo kmsInfo,
        String contractAddress,
        String deployerAddress,
        String scheduledDeleteAt,
        List<CvmInfo.Url> publicUrls,
        String gatewayDomain,
        MachineInfo machineInfo,
        String createdAt,
        String updatedAt) {
}
