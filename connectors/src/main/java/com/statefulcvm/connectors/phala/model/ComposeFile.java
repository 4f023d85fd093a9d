package com.statefulcvm.connectors.phala.model;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.core.JsonProcessingException;
import java.util.List;

/**
 * The app-compose document of a CVM. The API sends {@code compose_file} either as an object or as a string holding
 * that object, so both forms deserialize here.
 */
public record ComposeFile(
        String name,
        String dockerComposeFile,
        String preLaunchScript,
        List<String> allowedEnvs,
        Boolean gatewayEnabled,
        Boolean publicLogs,
        Boolean publicSysinfo,
        Boolean publicTcbinfo,
        Boolean secureTime,
        String storageFs,
        Boolean kmsEnabled) {

    // Explicit, because declaring the String creator below would otherwise hide the canonical constructor.
    @JsonCreator(mode = JsonCreator.Mode.PROPERTIES)
    public ComposeFile {
        allowedEnvs = allowedEnvs == null ? null : List.copyOf(allowedEnvs);
    }

    /** Only docker-compose text, everything else left to the platform defaults. */
    public static ComposeFile ofDockerCompose(String name, String dockerComposeYaml) {
        return new ComposeFile(name, dockerComposeYaml, null, null, null, null, null, null, null, null, null);
    }

    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    static ComposeFile fromJsonText(String json) {
        if (json == null || json.isBlank()) {
            return null;
        }
        try {
            return PhalaJson.objectMapper().readValue(json, ComposeFile.class);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("compose_file is a string but not a JSON object: " + e.getOriginalMessage(), e);
        }
    }
}
