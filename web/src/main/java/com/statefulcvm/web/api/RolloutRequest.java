package com.statefulcvm.web.api;

import com.fasterxml.jackson.databind.JsonNode;
import org.springframework.http.HttpStatus;

import java.nio.charset.StandardCharsets;

/** Reads and checks the body of a rollout request, naming the field that is wrong. */
final class RolloutRequest {

    /** A compose file is small; anything near this is a mistake or an attack, and process variables are not a blob store. */
    static final int MAX_COMPOSE_BYTES = 256 * 1024;

    private RolloutRequest() {
    }

    static String dockerComposeOf(JsonNode body) {
        if (body == null || !body.isObject()) {
            throw new ApiProblem(HttpStatus.BAD_REQUEST, "the body must be a JSON object like {\"dockerCompose\": \"<yaml>\"}");
        }
        JsonNode compose = body.get("dockerCompose");
        if (compose == null || compose.isNull()) {
            throw new ApiProblem(HttpStatus.BAD_REQUEST, "dockerCompose: is required");
        }
        if (!compose.isTextual()) {
            throw new ApiProblem(HttpStatus.BAD_REQUEST, "dockerCompose: must be a string holding the docker-compose YAML");
        }
        String text = compose.asText();
        if (text.isBlank()) {
            throw new ApiProblem(HttpStatus.BAD_REQUEST, "dockerCompose: must not be empty");
        }
        if (text.getBytes(StandardCharsets.UTF_8).length > MAX_COMPOSE_BYTES) {
            throw new ApiProblem(HttpStatus.BAD_REQUEST, "dockerCompose: larger than " + MAX_COMPOSE_BYTES + " bytes");
        }
        return text;
    }
}
