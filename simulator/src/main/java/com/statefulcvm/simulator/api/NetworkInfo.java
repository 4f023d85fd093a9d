package com.statefulcvm.simulator.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;

/** {@code GET /cvms/{cvm_id}/network}. */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.ALWAYS)
public record NetworkInfo(
        boolean isOnline,
        boolean isPublic,
        String error,
        String internalIp,
        String latestHandshake,
        List<CvmInfo.Url> publicUrls) {
}
