package com.statefulcvm.simulator.cloud;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

/**
 * A pending injected fault: the next {@code remaining} API calls matching {@code method} and {@code pathPattern}
 * answer {@code status}; {@code times} is how many it was given.
 */
@JsonNaming(PropertyNamingStrategies.LowerCamelCaseStrategy.class)
@JsonInclude(JsonInclude.Include.ALWAYS)
public record Fault(
        long id,
        String method,
        String pathPattern,
        int status,
        int times,
        int remaining,
        int retryAfterSeconds,
        String errorCode) {

    Fault withRemaining(int newRemaining) {
        return new Fault(id, method, pathPattern, status, times, newRemaining, retryAfterSeconds, errorCode);
    }

    /** The JSON body the faulted call answers with. */
    public Map<String, Object> body() {
        String message = switch (status) {
            case 409 -> ApiException.IN_PROGRESS;
            case 429 -> "Too many requests";
            case 503 -> "Service temporarily unavailable";
            case 500 -> "Internal server error";
            default -> "Injected fault";
        };
        if (errorCode != null && !errorCode.isBlank()) {
            return ApiException.structuredBody(errorCode, message, List.of());
        }
        return Map.of("detail", message);
    }
}
