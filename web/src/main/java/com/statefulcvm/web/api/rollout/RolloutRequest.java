package com.statefulcvm.web.api.rollout;

import com.statefulcvm.web.api.RequestBodies;
import com.statefulcvm.web.api.ApiProblem;
import com.fasterxml.jackson.databind.JsonNode;
import com.statefulcvm.fleet.ComposeCheck;
import com.statefulcvm.connectors.phala.EnvEncryption;
import org.springframework.http.HttpStatus;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Reads and checks the body of a rollout request, naming the field that is wrong. */
public final class RolloutRequest {

    /** A compose file is small; anything near this is a mistake or an attack, and process variables are not a blob store. */
    static final int MAX_COMPOSE_BYTES = 256 * 1024;

    static final String DOCKER_COMPOSE = "dockerCompose";
    static final String UPDATE_POLICY = "updatePolicy";
    static final String REVISION = "revision";
    static final String ENVS = "envs";
    /** Phala's env is small too; this bounds what is encrypted and sent per CVM. */
    static final int MAX_ENV_BYTES = 64 * 1024;
    static final int MAX_ENV_VARIABLES = 200;

    private RolloutRequest() {
    }

    /**
     * The {@code envs} object of an env rollout, {@code {"NAME": "value", ...}}, in the caller's order; null when
     * absent. Messages name the variable, never its value. The whole environment: Phala replaces it in full.
     */
    static Map<String, String> envsOf(JsonNode body) {
        JsonNode envs = body == null ? null : body.get(ENVS);
        if (envs == null || envs.isNull()) {
            return null;
        }
        if (!envs.isObject() || envs.isEmpty()) {
            throw new ApiProblem(HttpStatus.BAD_REQUEST, "envs: must be a non-empty JSON object of variable names and string values, "
                    + "the whole environment (Phala replaces it in full)");
        }
        if (envs.size() > MAX_ENV_VARIABLES) {
            throw new ApiProblem(HttpStatus.BAD_REQUEST, "envs: more than " + MAX_ENV_VARIABLES + " variables");
        }
        Map<String, String> out = new LinkedHashMap<>();
        int bytes = 0;
        for (Iterator<Map.Entry<String, JsonNode>> fields = envs.fields(); fields.hasNext(); ) {
            Map.Entry<String, JsonNode> field = fields.next();
            try {
                EnvEncryption.requireName(field.getKey());
            } catch (IllegalArgumentException e) {
                throw new ApiProblem(HttpStatus.BAD_REQUEST, e.getMessage());
            }
            if (!field.getValue().isValueNode() || field.getValue().isNull()) {
                throw new ApiProblem(HttpStatus.BAD_REQUEST, "envs." + field.getKey() + ": must be a string (or a number or boolean, sent as text)");
            }
            String value = field.getValue().asText();
            bytes += field.getKey().length() + value.getBytes(StandardCharsets.UTF_8).length;
            out.put(field.getKey(), value);
        }
        if (bytes > MAX_ENV_BYTES) {
            throw new ApiProblem(HttpStatus.BAD_REQUEST, "envs: larger than " + MAX_ENV_BYTES + " bytes");
        }
        return out;
    }

    /**
     * The env of a start form's text field: one {@code NAME=value} a line (blank lines and {@code #} comments left out),
     * or a JSON object; checked as {@link #envsOf}; null when the text is blank. Messages name the line or the
     * variable, never a value.
     */
    static Map<String, String> envsOfText(String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        com.fasterxml.jackson.databind.node.ObjectNode envs = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
        String trimmed = text.strip();
        if (trimmed.startsWith("{")) {
            try {
                JsonNode parsed = new com.fasterxml.jackson.databind.ObjectMapper().readTree(trimmed);
                if (parsed != null && parsed.isObject()) {
                    return envsOf(com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode().set(ENVS, parsed));
                }
            } catch (com.fasterxml.jackson.core.JsonProcessingException notJson) {
                throw new ApiProblem(HttpStatus.BAD_REQUEST, "envs: starts like a JSON object but is not one; write one NAME=value a line");
            }
        }
        String[] lines = text.split("\\R", -1);
        for (int n = 0; n < lines.length; n++) {
            String line = lines[n].strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            int eq = line.indexOf('=');
            if (eq < 1) {
                throw new ApiProblem(HttpStatus.BAD_REQUEST, "envs, line " + (n + 1) + ": write NAME=value");
            }
            String name = line.substring(0, eq).strip();
            if (envs.has(name)) {
                throw new ApiProblem(HttpStatus.BAD_REQUEST, "envs, line " + (n + 1) + ": " + name + " is given twice");
            }
            envs.put(name, lines[n].substring(lines[n].indexOf('=') + 1));
        }
        return envs.isEmpty() ? null : envsOf(com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode().set(ENVS, envs));
    }

    /** The body of a rollout (and of a plan preview): {@code {"dockerCompose": "...", "updatePolicy": {...}}}. */
    static String dockerComposeOf(JsonNode body) {
        RequestBodies.requireObject(body, "{\"dockerCompose\": \"<yaml>\"}");
        RequestBodies.onlyFields(body, DOCKER_COMPOSE, UPDATE_POLICY);
        String compose = optionalDockerComposeOf(body);
        if (compose == null) {
            throw new ApiProblem(HttpStatus.BAD_REQUEST, "dockerCompose: is required");
        }
        return compose;
    }

    /** A compose that the caller may leave out; null when absent. */
    static String optionalDockerComposeOf(JsonNode body) {
        JsonNode compose = body == null ? null : body.get(DOCKER_COMPOSE);
        if (compose == null || compose.isNull()) {
            return null;
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
        // every start path (REST, Tasklist form, engine REST, Java API) reaches this through RolloutStartCheck
        ComposeCheck.problem(text).ifPresent(problem -> {
            throw new ApiProblem(HttpStatus.BAD_REQUEST, "dockerCompose: " + problem);
        });
        return text;
    }

    /**
     * The request's {@code updatePolicy} object as JSON text, as the process variable holds it; null when absent or
     * empty. Its fields are checked by the caller against the set's policy (they need the set).
     */
    static String updatePolicyOf(JsonNode body) {
        JsonNode policy = body == null ? null : body.get(UPDATE_POLICY);
        if (policy == null || policy.isNull()) {
            return null;
        }
        if (!policy.isObject()) {
            throw new ApiProblem(HttpStatus.BAD_REQUEST,
                    "updatePolicy: must be a JSON object such as {\"maxUnavailable\": 2}, with any of the fleet file's update-policy fields");
        }
        return policy.isEmpty() ? null : policy.toString();
    }

    /** {@code {"revision": n, "updatePolicy": {...}}} of a rollback. */
    static int revisionOf(JsonNode body) {
        RequestBodies.requireObject(body, "{\"revision\": <number>}");
        RequestBodies.onlyFields(body, REVISION, UPDATE_POLICY);
        JsonNode revision = body.get(REVISION);
        if (revision == null || revision.isNull()) {
            throw new ApiProblem(HttpStatus.BAD_REQUEST, "revision: is required");
        }
        if (!revision.isIntegralNumber() || !revision.canConvertToInt() || revision.asInt() < 1) {
            throw new ApiProblem(HttpStatus.BAD_REQUEST, "revision: must be a revision number (1, 2, ...), was " + revision);
        }
        return revision.asInt();
    }

}
