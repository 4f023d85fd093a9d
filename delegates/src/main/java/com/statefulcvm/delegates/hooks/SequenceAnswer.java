package com.statefulcvm.delegates.hooks;

import com.statefulcvm.delegates.procedure.LightsOutVariables;
import org.camunda.bpm.engine.delegate.DelegateExecution;

/** What a sequence-&lt;type&gt; step answers: the number and what it is, in the variables lights-out-recovery reads. */
final class SequenceAnswer {


    private SequenceAnswer() {
    }

    static HookStep.Answer of(DelegateExecution execution, long number, String source) {
        return of(execution, null, number, source);
    }

    /** @param generation the generation of history the number belongs to (PostgreSQL's timeline, etcd's raft term), null where none */
    static HookStep.Answer of(DelegateExecution execution, Long generation, long number, String source) {
        execution.setVariable(LightsOutVariables.SEQUENCE_NUMBER, number);
        execution.setVariable(LightsOutVariables.SEQUENCE_SOURCE, source);
        execution.setVariable(LightsOutVariables.SEQUENCE_GENERATION, generation);
        return HookStep.Answer.ready("sequence number " + (generation == null ? "" : "(generation " + generation + ") ") + number
                + " (" + source + ")");
    }
}
