package com.statefulcvm.simulator.web;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.bind.MissingServletRequestParameterException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.statefulcvm.simulator.cloud.ApiException;

/**
 * Turns refusals into the platform's error bodies, for the simulator's controllers only (never the host app's).
 * Unreadable JSON and wrongly typed fields answer 422 {@code {"detail":[{"loc","msg","type"}]}}.
 */
@RestControllerAdvice(basePackageClasses = ApiExceptionHandler.class)
@ConditionalOnProperty(prefix = "simulator", name = "enabled", havingValue = "true")
public class ApiExceptionHandler {

    @ExceptionHandler(ApiException.class)
    ResponseEntity<Map<String, Object>> refused(ApiException e) {
        return ResponseEntity.status(e.status()).body(e.body());
    }

    @ExceptionHandler(HttpMessageNotReadableException.class)
    ResponseEntity<Map<String, Object>> unreadable(HttpMessageNotReadableException e) {
        Throwable cause = e.getCause();
        if (cause instanceof JsonMappingException mapping && !mapping.getPath().isEmpty()) {
            List<Object> loc = new ArrayList<>();
            loc.add("body");
            mapping.getPath().forEach(ref -> loc.add(ref.getFieldName() != null ? ref.getFieldName() : ref.getIndex()));
            return unprocessable(ApiException.unprocessable(loc, "Input should be a valid value", "type_error"));
        }
        if (cause instanceof JsonProcessingException) {
            return unprocessable(ApiException.unprocessable(List.of("body"), "JSON decode error", "json_invalid"));
        }
        return unprocessable(ApiException.missing());
    }

    @ExceptionHandler(MissingServletRequestParameterException.class)
    ResponseEntity<Map<String, Object>> missingParameter(MissingServletRequestParameterException e) {
        return unprocessable(ApiException.unprocessable(List.of("query", e.getParameterName()), "Field required",
                "missing"));
    }

    @ExceptionHandler(MethodArgumentTypeMismatchException.class)
    ResponseEntity<Map<String, Object>> mistyped(MethodArgumentTypeMismatchException e) {
        return unprocessable(ApiException.unprocessable(List.of("query", e.getName()),
                "Input should be a valid " + (e.getRequiredType() == null ? "value"
                        : e.getRequiredType().getSimpleName().toLowerCase()), "type_error"));
    }

    private static ResponseEntity<Map<String, Object>> unprocessable(ApiException e) {
        return ResponseEntity.status(e.status()).body(new LinkedHashMap<>(e.body()));
    }
}
