package com.statefulcvm.delegates.lightsout;

import com.statefulcvm.fleet.lightsout.SequenceNumbers;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.camunda.bpm.engine.delegate.JavaDelegate;
import org.springframework.stereotype.Component;

import com.statefulcvm.fleet.Slots;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

import static com.statefulcvm.delegates.procedure.LightsOutVariables.*;
import static com.statefulcvm.delegates.procedure.RolloutVariables.STAGE;

/**
 * "Choose the seed": the replica with the most recent data ({@link SequenceNumbers}: the largest (generation, number),
 * Patroni's (timeline, LSN)); a fenced slot the recovery left alone is listed and never chosen. An operator decides in
 * Tasklist when the set's lights-out.approval says so, when a replica did not answer (its data may be the most recent:
 * only a person can say whether to wait for it), when none answered (there is nothing to choose from), or when every
 * replica reported an empty state: that recovery is refused unless the approver overrides it with a reason.
 */
@Component("chooseLightsOutSeed")
public class ChooseLightsOutSeed implements JavaDelegate {

    @Override
    public void execute(DelegateExecution execution) {
        SequenceNumbers numbers = numbers(execution);
        String seed = numbers.seed().orElse(null);
        String empty = numbers.everyReplicaEmpty() ? "REFUSED: every replica reports an empty state (sequence 0): seeding "
                + seed + " would start " + execution.getVariable(REPLICA_SET) + " from no data. Approve only to start it empty on"
                + " purpose, and say why in the comment; otherwise reject and restore a replica's data first." : null;
        boolean decide = Boolean.TRUE.equals(execution.getVariable(APPROVAL_REQUIRED)) || !numbers.unanswered().isEmpty() || seed == null
                || empty != null;
        execution.setVariable(CHOSEN_SEED, seed);
        execution.setVariable(SEED, seed);
        execution.setVariable(SEED_OVERRIDDEN, false);
        execution.setVariable(FOLLOWERS, seed == null ? new ArrayList<String>() : new ArrayList<>(numbers.followersOf(seed)));
        execution.setVariable(NEEDS_DECISION, decide);
        execution.setVariable(EMPTY_STATE, empty);
        execution.setVariable(SEQUENCE_REPORT, (empty == null ? "" : empty + "\n") + numbers.report());
        execution.setVariable(STAGE, (empty != null ? "every replica reports an empty state" : seed == null ? "no replica answered its sequence number" : "seed: " + seed)
                + (decide ? "; waiting for an operator's decision" : "") + "\n" + numbers.report());
    }

    /** Every slot of the set, lowest ordinal first: those the recovery started and asked, and the fenced ones it left alone. */
    @SuppressWarnings("unchecked")
    static SequenceNumbers numbers(DelegateExecution execution) {
        String set = (String) execution.getVariable(REPLICA_SET);
        Map<String, String> fenced = RecordSequenceNumber.map(execution, FENCED_SLOTS);
        List<String> slots = new ArrayList<>();
        ((List<Object>) execution.getVariable(ALL_SLOTS)).forEach(s -> slots.add(String.valueOf(s)));
        slots.addAll(fenced.keySet());
        slots.sort(Comparator.comparingInt(slot -> Slots.ordinalOf(set, slot).orElse(Integer.MAX_VALUE)));
        Map<String, Long> answered = RecordSequenceNumber.map(execution, SEQUENCE_NUMBERS);
        Map<String, String> sources = RecordSequenceNumber.map(execution, SEQUENCE_SOURCES);
        Map<String, String> unanswered = RecordSequenceNumber.map(execution, UNANSWERED);
        Map<String, Long> generations = RecordSequenceNumber.map(execution, SEQUENCE_GENERATIONS);
        return new SequenceNumbers(slots, answered, sources, unanswered, generations, fenced);
    }
}
