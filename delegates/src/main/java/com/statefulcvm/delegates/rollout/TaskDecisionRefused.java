package com.statefulcvm.delegates.rollout;

import com.statefulcvm.delegates.support.OperatorRefusal;
import org.camunda.bpm.engine.delegate.DelegateTask;
import org.camunda.bpm.engine.impl.form.validator.FormFieldValidationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An operator's answer to a task that the procedure cannot act on; the task stays open. It is a refusal, not a
 * fault ({@link OperatorRefusal}): one INFO line here, and the engine's REST API (Tasklist's too) answers 400 with the
 * message, which Tasklist shows on the form.
 */
public final class TaskDecisionRefused {

    /** Starts every message, so that a caller reading only the text can tell a refusal from a failure. */
    public static final String MARKER = "Refused: ";
    private static final Logger log = LoggerFactory.getLogger(TaskDecisionRefused.class);

    private TaskDecisionRefused() {
    }

    public static FormFieldValidationException because(DelegateTask task, String field, String reason) {
        log.info("Answer to task '{}' ({}) refused: {}", task.getName(), task.getId(), reason);
        return new Refusal(field, MARKER + reason);
    }

    /** The form field that is wrong and why; the engine's REST resources answer it 400. */
    static final class Refusal extends FormFieldValidationException implements OperatorRefusal {
        Refusal(String field, String message) {
            super(field, message);
        }
    }
}
