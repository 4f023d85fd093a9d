package com.statefulcvm.delegates.rollout;

import org.camunda.bpm.engine.delegate.DelegateTask;
import org.camunda.bpm.engine.delegate.TaskListener;
import org.springframework.stereotype.Component;

/**
 * Completing an approval task without a real yes or no must fail loudly. The engine wraps any listener exception;
 * the message starts with {@link TaskDecisionRefused#MARKER} so the web layer can answer 400 instead of 500.
 * An accepted answer is recorded with who gave it and when ({@link TaskDecisions}).
 */
@Component("requireApprovalDecision")
public class RequireApprovalDecision implements TaskListener {

    @Override
    public void notify(DelegateTask task) {
        Object approved = task.getVariable(RolloutVariables.APPROVED);
        if (!(approved instanceof Boolean)) {
            throw TaskDecisionRefused.because(task, RolloutVariables.APPROVED,
                    "approved must be the boolean true or false (was " + describe(approved) + ")");
        }
        TaskDecisions.record(task, (Boolean) approved ? "approved" : "rejected");
    }

    static String describe(Object value) {
        return value == null ? "missing" : "'" + value + "' of type " + value.getClass().getSimpleName();
    }
}
