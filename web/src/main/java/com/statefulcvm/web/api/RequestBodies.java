package com.statefulcvm.web.api;

import com.fasterxml.jackson.databind.JsonNode;
import org.springframework.http.HttpStatus;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/** The checks every request body of our API gets first: a JSON object, and no field the endpoint does not know. */
public final class RequestBodies {

    private RequestBodies() {
    }

    public static void requireObject(JsonNode body, String example) {
        if (body == null || !body.isObject()) {
            throw new ApiProblem(HttpStatus.BAD_REQUEST, "the body must be a JSON object like " + example);
        }
    }

    /** A misspelt field must not be ignored silently (the rollout would run without what the caller asked for). */
    public static void onlyFields(JsonNode body, String... allowed) {
        if (body == null) {
            return;
        }
        Set<String> known = Set.of(allowed);
        List<String> unknown = new ArrayList<>();
        for (Iterator<String> names = body.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!known.contains(name)) {
                unknown.add(name);
            }
        }
        if (!unknown.isEmpty()) {
            throw new ApiProblem(HttpStatus.BAD_REQUEST, (unknown.size() == 1 ? "unknown field: " : "unknown fields: ")
                    + String.join(", ", unknown) + " (allowed: " + String.join(", ", Arrays.asList(allowed)) + ")",
                    java.util.Map.of("unknownFields", unknown));
        }
    }
}
