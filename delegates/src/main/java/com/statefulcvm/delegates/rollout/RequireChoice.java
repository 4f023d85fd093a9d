package com.statefulcvm.delegates.rollout;

import com.statefulcvm.delegates.procedure.RolloutVariables;
import org.camunda.bpm.engine.delegate.DelegateTask;
import org.camunda.bpm.engine.delegate.TaskListener;

import java.util.List;

/**
 * A task whose gateway knows a fixed set of answers in {@code decision}: anything else is refused before the task
 * completes, and the task stays open. An accepted answer is recorded with who gave it and when ({@link TaskDecisions}).
 */
public abstract class RequireChoice implements TaskListener {

    private final List<String> choices;

    protected RequireChoice(String... choices) {
        this.choices = List.of(choices);
    }

    @Override
    public void notify(DelegateTask task) {
        Object decision = task.getVariable(RolloutVariables.DECISION);
        if (!(decision instanceof String s) || !choices.contains(s)) {
            throw TaskDecisionRefused.because(task, RolloutVariables.DECISION, "decision must be one of "
                    + String.join(", ", choices.subList(0, choices.size() - 1)) + " or " + choices.get(choices.size() - 1)
                    + " (was " + RequireApprovalDecision.describe(decision) + ")");
        }
        TaskDecisions.record(task, (String) decision);
    }
}
