package com.statefulcvm.delegates.hooks;

import org.camunda.bpm.engine.delegate.DelegateExecution;

/** What a sequence-&lt;type&gt; step answers: the number and what it is, in the variables lights-out-recovery reads. */
final class SequenceAnswer {

    static final String SEQUENCE_NUMBER = "sequenceNumber";
    static final String SEQUENCE_SOURCE = "sequenceSource";

    private SequenceAnswer() {
    }

    static HookStep.Answer of(DelegateExecution execution, long number, String source) {
        execution.setVariable(SEQUENCE_NUMBER, number);
        execution.setVariable(SEQUENCE_SOURCE, source);
        return HookStep.Answer.ready("sequence number " + number + " (" + source + ")");
    }
}
