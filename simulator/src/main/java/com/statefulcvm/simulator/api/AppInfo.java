package com.statefulcvm.simulator.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;

/** AppInfo: an app and its replica set. */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.ALWAYS)
public record AppInfo(
        String id,
        String name,
        String appId,
        String kmsType,
        int cvmCount,
        CvmInfo currentCvm,
        List<CvmInfo> cvms,
        String createdAt) {
}
