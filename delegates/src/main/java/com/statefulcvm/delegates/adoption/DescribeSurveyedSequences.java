package com.statefulcvm.delegates.adoption;

import com.statefulcvm.delegates.lightsout.RecordSequenceNumber;
import com.statefulcvm.delegates.procedure.AdoptionVariables;
import com.statefulcvm.delegates.procedure.LightsOutVariables;
import com.statefulcvm.fleet.lightsout.SequenceNumbers;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.camunda.bpm.engine.delegate.JavaDelegate;
import org.springframework.stereotype.Component;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * "Put each slot's sequence number in the report" (adopt-replica-set.bpmn): what each running slot answered, or why it
 * did not, the most recent marked, for the approver; a slot that did not answer is listed, never given a number.
 */
@Component("describeSurveyedSequences")
public class DescribeSurveyedSequences implements JavaDelegate {

    @Override
    public void execute(DelegateExecution execution) {
        List<String> slots = new ArrayList<>();
        Object asked = execution.getVariable(AdoptionVariables.SEQUENCE_SLOTS);
        if (asked instanceof List<?> list) {
            list.forEach(s -> slots.add(String.valueOf(s)));
        }
        if (slots.isEmpty()) {
            Object reason = execution.getVariable(AdoptionVariables.SEQUENCE_REPORT);
            execution.setVariable(AdoptionVariables.SEQUENCE_REPORT, reason == null || reason.toString().isBlank()
                    ? "not asked: no slot runs" : reason);
            return;
        }
        SequenceNumbers numbers = new SequenceNumbers(slots, RecordSequenceNumber.map(execution, LightsOutVariables.SEQUENCE_NUMBERS),
                RecordSequenceNumber.map(execution, LightsOutVariables.SEQUENCE_SOURCES),
                RecordSequenceNumber.map(execution, LightsOutVariables.UNANSWERED),
                RecordSequenceNumber.map(execution, LightsOutVariables.SEQUENCE_GENERATIONS), Map.of());
        execution.setVariable(AdoptionVariables.SEQUENCE_REPORT, numbers.observed());
    }
}
