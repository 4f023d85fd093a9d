package com.statefulcvm.web.api;

import com.statefulcvm.connectors.phala.PhalaApiException;
import org.camunda.bpm.engine.AuthorizationException;
import org.springframework.beans.TypeMismatchException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.ErrorResponse;
import org.springframework.web.HttpMediaTypeNotSupportedException;
import org.springframework.web.HttpRequestMethodNotSupportedException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.servlet.resource.NoResourceFoundException;

import java.util.LinkedHashMap;
import java.util.Map;

/** Every refusal of our API is JSON {@code {status, error, message}}; nothing leaks a stack trace. */
@RestControllerAdvice(basePackageClasses = ApiExceptionHandler.class)
class ApiExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(ApiExceptionHandler.class);

    @ExceptionHandler(ApiProblem.class)
    ResponseEntity<Map<String, Object>> problem(ApiProblem problem) {
        return body(problem.status(), problem.getMessage(), problem.detail());
    }

    /** A start refused as the procedure starts (a race our own checks before it did not see). */
    @ExceptionHandler(ProcedureStartRefused.class)
    ResponseEntity<Map<String, Object>> startRefused(ProcedureStartRefused refused) {
        return body(refused.httpStatus(), refused.getMessage(), refused.detail());
    }

    @ExceptionHandler(HttpMessageNotReadableException.class)
    ResponseEntity<Map<String, Object>> unreadable(HttpMessageNotReadableException e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof ApiRequestLimits.TooLarge tooLarge) {
                return body(HttpStatus.PAYLOAD_TOO_LARGE, tooLarge.getMessage(), null);
            }
        }
        String cause = e.getMostSpecificCause().getMessage();
        return body(HttpStatus.BAD_REQUEST, "malformed JSON body: " + firstLine(cause), null);
    }

    /** A path or parameter of the wrong type (a typed @PathVariable, should one be added). */
    @ExceptionHandler(TypeMismatchException.class)
    ResponseEntity<Map<String, Object>> typeMismatch(TypeMismatchException e) {
        String name = e.getPropertyName() != null ? e.getPropertyName() : "parameter";
        return body(HttpStatus.BAD_REQUEST, name + ": must be a " + (e.getRequiredType() == null ? "valid value"
                : e.getRequiredType().getSimpleName()) + ", was '" + e.getValue() + "'", null);
    }

    /** The engine refused the caller (ApiAccess asks first; this is what the engine itself says when it refuses). */
    @ExceptionHandler(AuthorizationException.class)
    ResponseEntity<Map<String, Object>> forbidden(AuthorizationException e) {
        return body(HttpStatus.FORBIDDEN, firstLine(e.getMessage()), null);
    }

    /**
     * Any other refusal Spring MVC names itself (a missing parameter, an Accept we cannot answer, ...) keeps its
     * status; anything else is our fault: 500 with a plain message, the stack trace only in our log.
     */
    @ExceptionHandler(Exception.class)
    ResponseEntity<Map<String, Object>> other(Exception e) {
        if (e instanceof ErrorResponse refusal) {
            HttpStatusCode code = refusal.getStatusCode();
            HttpStatus status = HttpStatus.resolve(code.value());
            String detail = refusal.getBody().getDetail();
            return body(status == null ? HttpStatus.BAD_REQUEST : status, detail != null ? detail : firstLine(e.getMessage()), null);
        }
        log.error("Unexpected failure of an API request", e);
        return body(HttpStatus.INTERNAL_SERVER_ERROR, "internal error: " + e.getClass().getSimpleName() + " (see the server log)", null);
    }

    @ExceptionHandler(HttpMediaTypeNotSupportedException.class)
    ResponseEntity<Map<String, Object>> mediaType(HttpMediaTypeNotSupportedException e) {
        return body(HttpStatus.UNSUPPORTED_MEDIA_TYPE, "send Content-Type: application/json", null);
    }

    @ExceptionHandler(HttpRequestMethodNotSupportedException.class)
    ResponseEntity<Map<String, Object>> method(HttpRequestMethodNotSupportedException e) {
        return body(HttpStatus.METHOD_NOT_ALLOWED, e.getMessage(), null);
    }

    @ExceptionHandler(NoResourceFoundException.class)
    ResponseEntity<Map<String, Object>> notFound(NoResourceFoundException e) {
        return body(HttpStatus.NOT_FOUND, "no such endpoint: " + e.getResourcePath(), null);
    }

    @ExceptionHandler(PhalaApiException.class)
    ResponseEntity<Map<String, Object>> phala(PhalaApiException e) {
        log.warn("Phala Cloud API call failed: {}", e.getMessage());
        return body(HttpStatus.BAD_GATEWAY, e.getMessage(), null);
    }

    private static ResponseEntity<Map<String, Object>> body(HttpStatus status, String message, Object detail) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("status", status.value());
        body.put("error", status.getReasonPhrase());
        body.put("message", message);
        if (detail != null) {
            body.put("detail", detail);
        }
        return ResponseEntity.status(status).body(body);
    }

    private static String firstLine(String text) {
        if (text == null) {
            return "unreadable";
        }
        int nl = text.indexOf('\n');
        return nl < 0 ? text : text.substring(0, nl);
    }
}
