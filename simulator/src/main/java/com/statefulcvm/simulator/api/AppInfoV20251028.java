package com.statefulcvm.simulator.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;

/** {@code GET /apps/{app_id}} and the items of {@code GET /apps} in version 2025-10-28 (SDK {@code DstackAppFullResponseV20251028Schema}). */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.ALWAYS)
public record AppInfoV20251028(
        String id,
        String name,
        String appId,
        String appProvisionType,
        String appIconUrl,
        String createdAt,
        String kmsType,
        Object profile,
        CvmBasicInfo currentCvm,
        List<CvmBasicInfo> cvms,
        int cvmCount) {

    /** SDK {@code CvmBasicInfoV20251028Schema}. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record CvmBasicInfo(
            String vmUuid,
            String appId,
            String name,
            String status,
            int vcpu,
            int memory,
            int diskSize,
            int teepodId,
            String teepodName,
            String regionIdentifier,
            String kmsType,
            String instanceType,
            boolean listed,
            String baseImage,
            String kmsSlug,
            String kmsId,
            String instanceId,
            MachineInfo machineInfo,
            String updatedAt) {
    }
}
