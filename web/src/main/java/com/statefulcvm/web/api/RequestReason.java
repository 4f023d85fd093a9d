package com.statefulcvm.web.api;

import com.statefulcvm.web.api.rollout.RolloutRequest;
import com.statefulcvm.delegates.procedure.ProcedureVariables;
import com.fasterxml.jackson.databind.JsonNode;
import org.springframework.http.HttpStatus;

/**
 * The optional body {@code {"reason": "..."}} of a request that starts a procedure on an operator's word (a heal, a
 * failover): why, in the operator's words, kept with the procedure.
 */
public final class RequestReason {

    private static final int MAX_REASON = 500;

    private RequestReason() {
    }

    /** The reason, stripped; null when there is none. */
    public static String of(JsonNode body) {
        if (body == null || body.isNull()) {
            return null;
        }
        RequestBodies.requireObject(body, "{\"reason\": \"<why>\"} (optional)");
        RequestBodies.onlyFields(body, ProcedureVariables.REASON);
        return reasonOf(body);
    }

    /** The optional reason of a body the caller has already checked for its other fields. */
    public static String reasonOf(JsonNode body) {
        JsonNode reason = body.get(ProcedureVariables.REASON);
        if (reason == null || reason.isNull()) {
            return null;
        }
        if (!reason.isTextual()) {
            throw new ApiProblem(HttpStatus.BAD_REQUEST, "reason: must be a string");
        }
        String text = reason.asText().strip();
        if (text.length() > MAX_REASON) {
            throw new ApiProblem(HttpStatus.BAD_REQUEST, "reason: longer than " + MAX_REASON + " characters");
        }
        return text.isEmpty() ? null : text;
    }
}
