package com.statefulcvm.connectors.phala.model;

import com.fasterxml.jackson.annotation.JsonAlias;
import com.fasterxml.jackson.databind.JsonNode;

/**
 * Answer of {@code POST /cvms/provision} (SDK {@code ProvisionCvmSchema}): creates nothing. The node comes back as
 * {@code teepod_id} (the SDK reads it as {@code node_id}); {@code kms_info} and {@code kms_id} name the KMS the app's
 * env key comes from.
 */
public record ProvisionResult(
        String appId,
        String composeHash,
        String appEnvEncryptPubkey,
        String osImageHash,
        String instanceType,
        @JsonAlias("teepod_id") Long nodeId,
        String kmsId,
        JsonNode kmsInfo,
        String deviceId) {
}
