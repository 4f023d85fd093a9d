package com.statefulcvm.simulator.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;
import java.util.Map;

/**
 * CVMInfo of version 2026-01-21 (SDK {@code CvmInfoV20260121Schema}, {@code CvmInfoDetailV20260121Schema}):
 * {@code id} is the hashed CVM id (the schema's comment says so), the node, workspace and creator are references
 * with an {@code object_type}, and {@code compose_file} is only in the detail view. No {@code in_progress}: the schema
 * has none ({@code progress} says whether an operation runs).
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.ALWAYS)
public record CvmInfoV20260121(
        String id,
        String name,
        String appId,
        String vmUuid,
        String instanceId,
        Resource resource,
        Refs.NodeRef nodeInfo,
        CvmInfo.Os os,
        String kmsType,
        KmsInfo kmsInfo,
        String status,
        CvmInfo.Progress progress,
        String composeHash,
        CvmInfo.Gateway gateway,
        List<Map<String, Object>> services,
        List<CvmInfo.Url> endpoints,
        boolean publicLogs,
        boolean publicSysinfo,
        boolean publicTcbinfo,
        boolean gatewayEnabled,
        boolean secureTime,
        boolean listed,
        String storageFs,
        Refs.WorkspaceRef workspace,
        Refs.UserRef creator,
        String createdAt,
        String updatedAt,
        @JsonInclude(JsonInclude.Include.NON_NULL) Map<String, Object> composeFile) {

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record Resource(String instanceType, int vcpu, int memoryInGb, int diskInGb, int gpus,
            String computeBillingPrice, String billingPeriod) {
    }

    /** SDK {@code CvmKmsInfoV20260121Schema}: an off-chain KMS, so only the env encryption key is set. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record KmsInfo(Integer chainId, String dstackKmsAddress, String dstackAppAddress, String deployerAddress,
            String rpcEndpoint, String encryptedEnvPubkey) {
    }
}
