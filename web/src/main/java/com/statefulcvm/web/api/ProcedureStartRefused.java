package com.statefulcvm.web.api;

import com.statefulcvm.delegates.support.OperatorRefusal;
import jakarta.ws.rs.core.Response;
import org.camunda.bpm.engine.rest.exception.InvalidRequestException;
import org.springframework.http.HttpStatus;

/**
 * A start of an operator procedure refused as it starts. The transaction that started it rolls back, so nothing
 * changes. The engine's REST API (and Tasklist's, the same resources) answers a RestException with its status, so a
 * refusal is 400 or 409 there as it is in our API, with the message naming the field. A refusal, not a fault
 * ({@link OperatorRefusal}): {@link ProcedureStarts} logs it as one INFO line, the engine at DEBUG only.
 */
public class ProcedureStartRefused extends InvalidRequestException implements OperatorRefusal {

    private final HttpStatus httpStatus;
    private final transient Object detail;

    public ProcedureStartRefused(HttpStatus status, String message) {
        this(status, message, null);
    }

    public ProcedureStartRefused(HttpStatus status, String message, Object detail) {
        super(Response.Status.fromStatusCode(status.value()), message);
        this.httpStatus = status;
        this.detail = detail;
    }

    HttpStatus httpStatus() {
        return httpStatus;
    }

    Object detail() {
        return detail;
    }
}
