package com.statefulcvm.web.api;

import org.springframework.http.HttpStatus;

/** A request we refuse, with the status and the message the caller sees. */
class ApiProblem extends RuntimeException {

    private final HttpStatus status;
    private final transient Object detail;

    ApiProblem(HttpStatus status, String message) {
        this(status, message, null);
    }

    ApiProblem(HttpStatus status, String message, Object detail) {
        super(message);
        this.status = status;
        this.detail = detail;
    }

    HttpStatus status() {
        return status;
    }

    Object detail() {
        return detail;
    }
}
