package com.statefulcvm.delegates.rollout;

import org.camunda.bpm.engine.delegate.DelegateTask;
import org.camunda.bpm.engine.delegate.TaskListener;
import org.camunda.bpm.engine.impl.form.validator.FormFieldValidationException;
import org.springframework.stereotype.Component;

/**
 * Completing an approval task without a real yes or no must fail loudly; the engine maps this exception to
 * HTTP 400 in the REST API and Tasklist shows its message.
 */
@Component("requireApprovalDecision")
public class RequireApprovalDecision implements TaskListener {

    @Override
    public void notify(DelegateTask task) {
        Object approved = task.getVariable(RolloutVariables.APPROVED);
        if (!(approved instanceof Boolean)) {
            throw new FormFieldValidationException(RolloutVariables.APPROVED,
                    "approved must be the boolean true or false (was " + describe(approved) + ")");
        }
    }

    static String describe(Object value) {
        return value == null ? "missing" : "'" + value + "' of type " + value.getClass().getSimpleName();
    }
}
