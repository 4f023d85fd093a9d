package com.statefulcvm.simulator.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;

/**
 * A CVM in lists of version 2025-10-28 ({@code GET /cvms/paginated}, {@code GET /apps/{app_id}/cvms}; SDK
 * {@code CvmInfoV20251028Schema}): the VM itself under {@code hosted}, whose {@code id} is the vm_uuid.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.ALWAYS)
public record CvmInfoV20251028(
        Hosted hosted,
        String name,
        ManagedUser managedUser,
        LegacyNode node,
        boolean listed,
        String status,
        boolean inProgress,
        String dappDashboardUrl,
        String syslogEndpoint,
        boolean allowUpgrade,
        String projectId,
        String projectType,
        String billingPeriod,
        KmsInfo kmsInfo,
        Integer vcpu,
        Integer memory,
        Integer diskSize,
        String gatewayDomain,
        List<CvmInfo.Url> publicUrls,
        MachineInfo machineInfo,
        String updatedAt) {

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record Hosted(
            String id,
            String name,
            String status,
            String uptime,
            String appUrl,
            String appId,
            String instanceId,
            String exitedAt,
            String bootProgress,
            String bootError,
            String shutdownProgress,
            String imageVersion) {
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record ManagedUser(int id, String username) {
    }
}
