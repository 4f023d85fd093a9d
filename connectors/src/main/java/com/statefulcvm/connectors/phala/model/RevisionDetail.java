package com.statefulcvm.connectors.phala.model;

/**
 * One app revision with what it was deployed with (SDK {@code AppRevisionDetailResponseSchema}): {@code encryptedEnv}
 * is the ciphertext the CVM was given (only the CVM can open it), so two revisions with the same ciphertext ran the same
 * env values. The compose and the user config are not read.
 */
public record RevisionDetail(
        String revisionId,
        String appId,
        String vmUuid,
        String composeHash,
        String encryptedEnv,
        String createdAt,
        String operationType,
        Revision.UserRef triggeredBy) {
}
