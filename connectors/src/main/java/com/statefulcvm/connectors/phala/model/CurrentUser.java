package com.statefulcvm.connectors.phala.model;

/** Answer of {@code GET /auth/me} in version 2026-01-21 (SDK {@code CurrentUserV20260121Schema}), the part we read. */
public record CurrentUser(User user, Workspace workspace) {

    public record User(String username) {
    }

    /** {@code slug} may be null (SDK schema: nullable). */
    public record Workspace(String id, String name, String slug, String tier) {
    }
}
