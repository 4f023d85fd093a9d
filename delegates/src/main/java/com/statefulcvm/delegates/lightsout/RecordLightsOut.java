package com.statefulcvm.delegates.lightsout;

import com.statefulcvm.delegates.procedure.LightsOutVariables;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.camunda.bpm.engine.delegate.JavaDelegate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import java.util.Map;

import static com.statefulcvm.delegates.procedure.LightsOutVariables.*;
import static com.statefulcvm.delegates.procedure.RolloutVariables.STAGE;

/**
 * "Record the outcome": {@code lightsOutResult} (set by the end the procedure took, through the input of this step) and
 * {@code outcome} in words: the seed and why, the followers that joined or not, and every replica's number or why it
 * had none.
 */
@Component("recordLightsOut")
public class RecordLightsOut implements JavaDelegate {

    private static final Logger log = LoggerFactory.getLogger(RecordLightsOut.class);

    @Override
    public void execute(DelegateExecution execution) {
        String set = (String) execution.getVariable(REPLICA_SET);
        String result = (String) execution.getVariable(RESULT);
        Map<String, String> notJoined = RecordSequenceNumber.map(execution, FOLLOWERS_NOT_JOINED);
        if ("recovered".equals(result) && !notJoined.isEmpty()) {
            result = "recovered-partly";
            execution.setVariable(RESULT, result);
        }
        String seed = (String) execution.getVariable(SEED);
        String report = (String) execution.getVariable(SEQUENCE_REPORT);
        String outcome = switch (result == null ? "" : result) {
            case "refused" -> "lights-out recovery of " + set + " refused: " + execution.getVariable(REFUSAL);
            case "rejected" -> "lights-out recovery of " + set + " rejected by the operator: no replica was seeded";
            case "seed-failed" -> "lights-out recovery of " + set + ": the seed " + seed + " did not run, pass attestation and "
                    + "become healthy within " + execution.getVariable(SEED_TIMEOUT) + "; the followers were not released";
            case "recovered-partly" -> "lights-out recovery of " + set + ": seeded from " + seed + why(execution)
                    + "; followers that did not join: " + notJoined;
            default -> "lights-out recovery of " + set + ": seeded from " + seed + why(execution) + ", every other replica joined";
        };
        Map<String, String> fenced = RecordSequenceNumber.map(execution, FENCED_SLOTS);
        if (!fenced.isEmpty()) {
            outcome += "; fenced slots left alone (readmit them): " + String.join(", ", fenced.keySet());
        }
        if (execution.getVariable(LightsOutVariables.FENCES_OVERRIDDEN) instanceof Map<?, ?> overridden && !overridden.isEmpty()) {
            outcome += "; fenced slots included by " + execution.getVariable(REQUESTED_BY) + "'s override (readmitFenced): "
                    + overridden.keySet();
        }
        if (report != null) {
            outcome += "\nsequence numbers:\n" + report;
        }
        execution.setVariable(OUTCOME, outcome);
        execution.setVariable(STAGE, outcome);
        log.info("{}", outcome);
    }

    private static String why(DelegateExecution execution) {
        return Boolean.TRUE.equals(execution.getVariable(SEED_OVERRIDDEN))
                ? " (chosen by the operator instead of " + execution.getVariable(CHOSEN_SEED) + ")"
                : " (the largest sequence number)";
    }
}
