package com.statefulcvm.web.security;

import jakarta.ws.rs.core.Response;
import org.camunda.bpm.engine.rest.exception.InvalidRequestException;

/**
 * An engine call this deployment refuses before it changes anything (an approval completed with a field its form does
 * not have, by the user who requested the procedure, a start at an activity by a non-admin). The engine's REST API,
 * and Tasklist's (the same resources), answer it with its status and message; a Java caller gets it as it is.
 */
public class EngineCallRefused extends InvalidRequestException {

    public EngineCallRefused(Response.Status status, String message) {
        super(status, message);
    }
}
