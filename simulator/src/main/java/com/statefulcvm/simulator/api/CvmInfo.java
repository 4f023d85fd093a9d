package com.statefulcvm.simulator.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;
import java.util.Map;

/** CVMInfo as the Phala Cloud API answers it; {@code compose_file} only in the detail view. */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.ALWAYS)
public record CvmInfo(
        String id,
        String name,
        String appId,
        String vmUuid,
        String instanceId,
        String status,
        boolean inProgress,
        Progress progress,
        String composeHash,
        Resource resource,
        NodeInfo nodeInfo,
        Os os,
        String kmsType,
        Gateway gateway,
        String storageFs,
        int diskSize,
        List<Url> endpoints,
        List<Url> publicUrls,
        String createdAt,
        String updatedAt,
        @JsonInclude(JsonInclude.Include.NON_NULL) Map<String, Object> composeFile) {

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record Progress(String target, String startedAt, String correlationId) {
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Resource(String instanceType, int vcpu, int memoryInGb, int diskInGb) {
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record NodeInfo(int id, String name, String region, String status) {
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Os(String name, String version, boolean isDev, String osImageHash) {
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record Gateway(String baseDomain, String cname) {
    }

    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record Url(String app, String instance) {
    }
}
