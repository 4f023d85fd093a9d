package com.statefulcvm.delegates.rollout;

import com.statefulcvm.delegates.procedure.RefusalVariables;
import org.camunda.bpm.engine.delegate.DelegateTask;
import org.springframework.stereotype.Component;

/**
 * The decision on instances refused beyond the disruption budget: fence them all anyway, or wait and be asked again.
 * Who decided is kept for the fences it makes ({@value RefusalVariables#DECIDED_BY}), from the authenticated user.
 */
@Component("requireRefusalDecision")
public class RequireRefusalDecision extends RequireChoice {

    public RequireRefusalDecision() {
        super(RefusalVariables.FENCE, RefusalVariables.WAIT);
    }

    @Override
    public void notify(DelegateTask task) {
        super.notify(task);
        if (task.getExecution() != null) {
            task.getExecution().getProcessInstance().setVariable(RefusalVariables.DECIDED_BY, TaskDecisions.authenticatedUser(task));
        }
    }
}
