package com.statefulcvm.delegates.scale;

import com.statefulcvm.delegates.support.ReplicaSets;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.camunda.bpm.engine.delegate.JavaDelegate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import java.util.Objects;

import static com.statefulcvm.delegates.procedure.RolloutVariables.OUTCOME;
import static com.statefulcvm.delegates.procedure.RolloutVariables.STAGE;
import static com.statefulcvm.delegates.procedure.ScaleVariables.*;

/**
 * "Record the outcome": how the scale ended ({@code scaleResult}: scaled, no-change, rejected, stopped, refused) and,
 * in words, from how many replicas to how many: the set's desired count as the slots recorded it.
 */
@Component("recordScale")
public class RecordScale implements JavaDelegate {

    private static final Logger log = LoggerFactory.getLogger(RecordScale.class);

    private final ReplicaSets replicaSets;

    public RecordScale(ReplicaSets replicaSets) {
        this.replicaSets = replicaSets;
    }

    @Override
    public void execute(DelegateExecution execution) {
        String set = (String) execution.getVariable(REPLICA_SET);
        String result = Objects.toString(execution.getVariable(SCALE_RESULT), "scaled");
        Object from = execution.getVariable(CURRENT_REPLICAS);
        Object requested = execution.getVariable(REQUESTED_REPLICAS);
        String now = replicaSets.exists(set) ? Integer.toString(replicaSets.spec(set).getReplicas()) : "?";
        String what = switch (result) {
            case "refused" -> "refused: " + execution.getVariable(SCALE_REFUSAL);
            case "no-change" -> "no change: " + execution.getVariable(PLAN_SUMMARY);
            case "rejected" -> "rejected by the operator: " + set + " stays at " + now + " replicas (asked: " + requested + ")";
            case "stopped" -> "stopped by the operator (" + Objects.toString(execution.getVariable(HALT_REASON),
                    "a hook was aborted") + "); " + set + " has " + now
                    + " replicas (was " + from + ", asked: " + requested + ")";
            default -> "scaled " + set + " from " + from + " to " + now + " replicas";
        };
        String outcome = what + "; " + execution.getVariable(SCALE_REASON);
        execution.setVariable(SCALE_RESULT, result);
        execution.setVariable(OUTCOME, outcome);
        execution.setVariable(STAGE, what);
        log.info("Scale {} of '{}': {}", execution.getProcessInstanceId(), set, outcome);
    }
}
