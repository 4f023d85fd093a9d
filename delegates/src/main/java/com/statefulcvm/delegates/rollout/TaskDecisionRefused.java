package com.statefulcvm.delegates.rollout;

import org.camunda.bpm.engine.impl.form.validator.FormFieldValidationException;

/** An operator's answer to a task that the procedure cannot act on; the task stays open. */
public final class TaskDecisionRefused {

    /** Survives the engine's wrapping of listener exceptions, so callers can tell a refusal from a failure. */
    public static final String MARKER = "Refused: ";

    private TaskDecisionRefused() {
    }

    public static FormFieldValidationException because(String field, String reason) {
        return new FormFieldValidationException(field, MARKER + reason);
    }
}
