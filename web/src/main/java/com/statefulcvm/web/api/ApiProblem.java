package com.statefulcvm.web.api;

import org.springframework.http.HttpStatus;

/** A request we refuse, with the status and the message the caller sees. */
public class ApiProblem extends RuntimeException {

    private final HttpStatus status;
    private final transient Object detail;

    public ApiProblem(HttpStatus status, String message) {
        this(status, message, null);
    }

    public ApiProblem(HttpStatus status, String message, Object detail) {
        super(message);
        this.status = status;
        this.detail = detail;
    }

    public HttpStatus status() {
        return status;
    }

    public Object detail() {
        return detail;
    }
}
