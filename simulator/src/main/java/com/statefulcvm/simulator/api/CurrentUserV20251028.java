package com.statefulcvm.simulator.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

/** {@code GET /auth/me} in version 2025-10-28 (SDK {@code CurrentUserV20251028Schema}). */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.ALWAYS)
public record CurrentUserV20251028(String username, String email, double credits, double grantedCredits,
        String avatar, String teamName, String teamTier) {
}
