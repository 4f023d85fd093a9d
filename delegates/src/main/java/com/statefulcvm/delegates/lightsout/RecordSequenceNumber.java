package com.statefulcvm.delegates.lightsout;

import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.camunda.bpm.engine.delegate.JavaDelegate;
import org.springframework.stereotype.Component;

import java.util.LinkedHashMap;
import java.util.Map;

import static com.statefulcvm.delegates.procedure.LightsOutVariables.*;
import static com.statefulcvm.delegates.procedure.RolloutVariables.SLOT;
import static com.statefulcvm.delegates.procedure.RolloutVariables.STAGE;

/**
 * "Record the replica's answer": the number its sequence-&lt;type&gt; procedure returned, or why there is none (the
 * procedure failed, did not answer within lights-out.sequence-timeout, the slot has no CVM). A replica without a number
 * is listed as unanswered, never given one. Idempotent: a slot's entry is replaced.
 */
@Component("recordSequenceNumber")
public class RecordSequenceNumber implements JavaDelegate {

    @Override
    public void execute(DelegateExecution execution) {
        String slot = (String) execution.getVariable(SLOT);
        Map<String, Long> numbers = map(execution, SEQUENCE_NUMBERS);
        Map<String, String> sources = map(execution, SEQUENCE_SOURCES);
        Map<String, String> unanswered = map(execution, UNANSWERED);
        Map<String, Long> generations = map(execution, SEQUENCE_GENERATIONS);
        Object number = execution.getVariable(SEQUENCE_NUMBER);
        Object error = execution.getVariable(SEQUENCE_ERROR);
        numbers.remove(slot);
        sources.remove(slot);
        unanswered.remove(slot);
        generations.remove(slot);
        String stage;
        if (error == null && number instanceof Number n) {
            numbers.put(slot, n.longValue());
            if (execution.getVariable(SEQUENCE_GENERATION) instanceof Number generation) {
                generations.put(slot, generation.longValue());
            }
            Object source = execution.getVariable(SEQUENCE_SOURCE);
            sources.put(slot, source == null ? "" : source.toString());
            stage = slot + " answered " + n.longValue() + (source == null ? "" : " (" + source + ")");
        } else {
            String why = error != null ? error.toString() : "its procedure ended without a number";
            unanswered.put(slot, why);
            stage = slot + " has no sequence number: " + why;
        }
        execution.setVariable(SEQUENCE_NUMBERS, numbers);
        execution.setVariable(SEQUENCE_SOURCES, sources);
        execution.setVariable(UNANSWERED, unanswered);
        execution.setVariable(SEQUENCE_GENERATIONS, generations);
        execution.setVariable(STAGE, stage);
    }

    @SuppressWarnings("unchecked")
    public static <V> Map<String, V> map(DelegateExecution execution, String name) {
        Object value = execution.getVariable(name);
        Map<String, V> copy = new LinkedHashMap<>();
        if (value instanceof Map<?, ?> map) {
            map.forEach((k, v) -> copy.put(String.valueOf(k), (V) (v instanceof Number n && !(v instanceof Long) ? (Object) n.longValue() : v)));
        }
        return copy;
    }
}
