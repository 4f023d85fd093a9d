package com.statefulcvm.delegates.failover;

import com.statefulcvm.delegates.support.ReplicaSetObserver;
import com.statefulcvm.delegates.support.SlotReader;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.Slots;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.camunda.bpm.engine.delegate.JavaDelegate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import java.util.Objects;

import static com.statefulcvm.delegates.procedure.FailoverVariables.*;
import static com.statefulcvm.delegates.procedure.RolloutVariables.OUTCOME;
import static com.statefulcvm.delegates.procedure.RolloutVariables.STAGE;

/**
 * "Record the outcome": {@code outcome} in words, and on the old leader's instance a registry condition saying it
 * was fenced and who leads instead, so the fleet page explains why that CVM is stopped.
 */
@Component("recordFailover")
public class RecordFailover implements JavaDelegate {

    private static final Logger log = LoggerFactory.getLogger(RecordFailover.class);

    private final SlotReader slots;
    private final ReplicaSetObserver observer;

    public RecordFailover(SlotReader slots, ReplicaSetObserver observer) {
        this.slots = slots;
        this.observer = observer;
    }

    @Override
    public void execute(DelegateExecution execution) {
        ReplicaSetSpec spec = slots.spec(execution);
        String result = Objects.toString(execution.getVariable(FAILOVER_RESULT), Result.NOT_CONFIRMED);
        String oldLeader = (String) execution.getVariable(OLD_LEADER);
        String candidate = (String) execution.getVariable(CANDIDATE);
        String stage = Objects.toString(execution.getVariable(STAGE), "");
        String what = switch (result) {
            case Result.FAILED_OVER -> "failed over: " + candidate + " leads (data to " + execution.getVariable(CANDIDATE_LSN)
                    + "); the old leader " + (oldLeader == null ? "(unknown)" : oldLeader + " is fenced (CVM stopped)");
            case Result.NOT_NEEDED -> "no failover needed: " + stage;
            case Result.RECOVERED -> "the workload recovered by itself: " + stage;
            case Result.REFUSED -> "refused: " + stage;
            case Result.NO_CANDIDATE -> "no failover: " + execution.getVariable(CANDIDATE_REASON);
            case Result.REJECTED -> "no failover: the operator rejected promoting " + candidate;
            case Result.PROMOTION_REFUSED -> "no failover: " + execution.getVariable(PROMOTION_ANSWER);
            default -> "the promotion of " + candidate + " was not confirmed within " + execution.getVariable(VERIFY_TIMEOUT)
                    + "; last: " + stage;
        };
        String outcome = ChooseFailoverCandidate.clip(what + "; why: " + execution.getVariable(FAILOVER_REASON));
        // a member named otherwise than its slot has no instance to note it on
        if (Result.FAILED_OVER.equals(result) && oldLeader != null && Slots.ordinalOf(spec.getName(), oldLeader).isPresent()) {
            observer.recordCondition(spec, oldLeader, ChooseFailoverCandidate.clip("Fenced by failover "
                    + execution.getProcessInstanceId() + ": " + candidate + " leads instead"));
        }
        execution.setVariable(FAILOVER_RESULT, result);
        execution.setVariable(OUTCOME, outcome);
        execution.setVariable(STAGE, ChooseFailoverCandidate.clip(what));
        log.info("Failover of {} ({}): {}", spec.getName(), execution.getProcessInstanceId(), outcome);
    }
}
