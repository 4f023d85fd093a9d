package com.statefulcvm.simulator.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

/**
 * {@code GET /auth/me} in versions 2026-01-21 and 2026-05-22 (SDK {@code CurrentUserV20260121Schema}): the user,
 * the workspace the key belongs to, and its credits.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.ALWAYS)
public record CurrentUser(User user, Workspace workspace, Credits credits) {

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record User(String username, String email, String role, String avatar, boolean emailVerified,
            boolean totpEnabled, boolean hasBackupCodes, boolean flagHasPassword) {
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record Workspace(String id, String name, String slug, String tier, String role, String avatar) {
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record Credits(String balance, String grantedBalance, boolean isPostPaid, String outstandingAmount) {
    }
}
