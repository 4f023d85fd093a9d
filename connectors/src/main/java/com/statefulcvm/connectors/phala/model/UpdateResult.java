package com.statefulcvm.connectors.phala.model;

/**
 * Answer of an accepted update (202; SDK {@code UpdateDockerComposeInProgressSchema} and
 * {@code UpdateCvmEnvsInProgressSchema}): {@code status} {@code in_progress}, a message and the correlation id. An
 * on-chain KMS app's precondition comes as HTTP 465 instead ({@link com.statefulcvm.connectors.phala.OnChainHashRequired}).
 */
public record UpdateResult(String status, String message, String correlationId, Boolean allowedEnvsChanged) {

    public static final String IN_PROGRESS = "in_progress";
}
