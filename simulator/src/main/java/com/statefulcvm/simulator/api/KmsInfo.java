package com.statefulcvm.simulator.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

/**
 * {@code kms_info} of versions 2025-10-28 (SDK {@code KmsInfoSchema}): the KMS the app's keys come from. The
 * simulator has one off-chain KMS, so {@code chain_id} and the contract addresses are null.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.ALWAYS)
public record KmsInfo(String id, String slug, String url, String version, Integer chainId,
        String kmsContractAddress, String gatewayAppId) {
}
