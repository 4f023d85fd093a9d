package com.statefulcvm.delegates.hooks;

import org.camunda.bpm.engine.delegate.DelegateExecution;

/** What a sequence-&lt;type&gt; step answers: the number and what it is, in the variables lights-out-recovery reads. */
final class SequenceAnswer {

    static final String SEQUENCE_NUMBER = "sequenceNumber";
    static final String SEQUENCE_SOURCE = "sequenceSource";
    static final String SEQUENCE_GENERATION = "sequenceGeneration";

    private SequenceAnswer() {
    }

    static HookStep.Answer of(DelegateExecution execution, long number, String source) {
        return of(execution, null, number, source);
    }

    /** @param generation the generation of history the number belongs to (PostgreSQL's timeline), null where none */
    static HookStep.Answer of(DelegateExecution execution, Long generation, long number, String source) {
        execution.setVariable(SEQUENCE_NUMBER, number);
        execution.setVariable(SEQUENCE_SOURCE, source);
        execution.setVariable(SEQUENCE_GENERATION, generation);
        return HookStep.Answer.ready("sequence number " + (generation == null ? "" : "(timeline " + generation + ") ") + number
                + " (" + source + ")");
    }
}
