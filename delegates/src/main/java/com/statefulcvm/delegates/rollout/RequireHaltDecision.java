package com.statefulcvm.delegates.rollout;

import org.camunda.bpm.engine.delegate.DelegateTask;
import org.camunda.bpm.engine.delegate.TaskListener;
import org.springframework.stereotype.Component;

import java.util.Set;

/** The halted task's gateway only knows retry, skip and abort; anything else is refused before the task completes. */
@Component("requireHaltDecision")
public class RequireHaltDecision implements TaskListener {

    static final Set<String> DECISIONS = Set.of("retry", "skip", "abort");

    @Override
    public void notify(DelegateTask task) {
        Object decision = task.getVariable(RolloutVariables.DECISION);
        if (!(decision instanceof String s) || !DECISIONS.contains(s)) {
            throw TaskDecisionRefused.because(RolloutVariables.DECISION,
                    "decision must be one of retry, skip or abort (was " + RequireApprovalDecision.describe(decision) + ")");
        }
    }
}
