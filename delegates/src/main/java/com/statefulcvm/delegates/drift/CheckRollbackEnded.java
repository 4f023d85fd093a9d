package com.statefulcvm.delegates.drift;

import com.statefulcvm.delegates.procedure.DriftRollbacks;
import com.statefulcvm.delegates.procedure.RolloutVariables;
import org.camunda.bpm.engine.HistoryService;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.camunda.bpm.engine.delegate.JavaDelegate;
import org.camunda.bpm.engine.history.HistoricProcessInstance;
import org.camunda.bpm.engine.history.HistoricVariableInstance;
import org.springframework.stereotype.Component;

/**
 * "Has the rollback ended?" (decide-attestation-refusals.bpmn, decide-env-drift.bpmn): the decision waits for the
 * rollout its "rollback" started, then looks at the set again, so that a rollback the rollout's plan refused (the
 * disruption budget allowing no instance down) or that failed asks the approver again, saying how it ended.
 */
@Component("checkRollbackEnded")
public class CheckRollbackEnded implements JavaDelegate {

    private final HistoryService history;

    public CheckRollbackEnded(HistoryService history) {
        this.history = history;
    }

    @Override
    public void execute(DelegateExecution execution) {
        String rollout = (String) execution.getVariable(DriftRollbacks.ROLLBACK_ROLLOUT);
        HistoricProcessInstance ended = rollout == null ? null
                : history.createHistoricProcessInstanceQuery().processInstanceId(rollout).finished().singleResult();
        execution.setVariable(DriftRollbacks.ROLLBACK_ENDED, rollout == null || ended != null);
        if (ended != null) {
            Object outcome = processLevel(rollout, RolloutVariables.OUTCOME);
            Object why = outcome != null ? outcome : processLevel(rollout, RolloutVariables.STAGE);
            execution.setVariable(DriftRollbacks.ROLLBACK_OUTCOME, "rollback rollout " + rollout + " ended at " + ended.getEndActivityId()
                    + (why == null ? "" : ": " + why));
        }
    }

    /** The rollout's own value of the variable (its process scope, not a step's). */
    private Object processLevel(String rollout, String name) {
        return history.createHistoricVariableInstanceQuery().processInstanceId(rollout).variableName(name).list().stream()
                .filter(v -> rollout.equals(v.getExecutionId())).map(HistoricVariableInstance::getValue)
                .filter(java.util.Objects::nonNull).findFirst().orElse(null);
    }
}
