package com.statefulcvm.simulator.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

/**
 * The small references of versions 2025-10-28 and 2026-01-21 (SDK {@code UserRefSchema}, {@code WorkspaceRefSchema},
 * {@code NodeRefSchema}, {@code CvmRefSchema}): each carries its {@code object_type}.
 */
public final class Refs {

    private Refs() {
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record UserRef(String objectType, String id, String username, String avatarUrl) {
        public UserRef(String id, String username) {
            this("user", id, username, null);
        }
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record WorkspaceRef(String objectType, String id, String name, String slug, String avatarUrl) {
        public WorkspaceRef(String id, String name, String slug) {
            this("workspace", id, name, slug, null);
        }
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record NodeRef(String objectType, Integer id, String name, String region, String deviceId, String ppid,
            String status, String version) {
        public NodeRef(int id, String name, String region, String deviceId, String status, String version) {
            this("node", id, name, region, deviceId, null, status, version);
        }
    }

    /** {@code id}: the integer CVM id written as a string, null once the CVM is gone. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record CvmRef(String objectType, String id, String name, String appId, String vmUuid) {
        public CvmRef(String id, String name, String appId, String vmUuid) {
            this("cvm", id, name, appId, vmUuid);
        }
    }
}
