package com.statefulcvm.simulator.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;

/** {@code GET /apps/{app_id}} and the items of {@code GET /apps} in version 2026-01-21 (SDK {@code DstackAppFullResponseV20260121Schema}). */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.ALWAYS)
public record AppInfoV20260121(
        String id,
        String name,
        String appId,
        String appProvisionType,
        String appIconUrl,
        String createdAt,
        String kmsType,
        Object profile,
        CvmInfoV20260121 currentCvm,
        List<CvmInfoV20260121> cvms,
        int cvmCount) {
}
