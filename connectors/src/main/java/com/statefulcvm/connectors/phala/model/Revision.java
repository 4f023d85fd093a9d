package com.statefulcvm.connectors.phala.model;

/**
 * One app revision (SDK {@code AppRevisionResponseSchema}): {@code triggered_by} is a user reference object, or null
 * when the platform made the change.
 */
public record Revision(
        String revisionId,
        String appId,
        String vmUuid,
        String composeHash,
        String createdAt,
        String operationType,
        UserRef triggeredBy) {

    /** SDK {@code UserRefSchema}: {@code {object_type: "user", id?, username?, avatar_url?}}. */
    public record UserRef(String objectType, String id, String username, String avatarUrl) {
    }
}
