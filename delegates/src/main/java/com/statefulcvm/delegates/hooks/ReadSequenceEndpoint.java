package com.statefulcvm.delegates.hooks;

import com.statefulcvm.connectors.workload.SequenceEndpoint;
import com.statefulcvm.fleet.lightsout.LightsOut;
import org.camunda.bpm.engine.delegate.BpmnError;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.springframework.stereotype.Component;

/**
 * sequence-generic: "Ask the compose's sequence endpoint": {@code GET <lights-out.sequence-path>} on
 * {@code lights-out.sequence-port} (default: the health check's port) must answer an integer. A replica that answers
 * anything else has no number (HOOK_FAILED, reported by the recovery); one that does not answer yet is asked again
 * until the recovery's sequence timeout.
 */
@Component("readSequenceEndpoint")
public class ReadSequenceEndpoint extends HookStep {

    @Override
    protected Answer run(HookContext context, DelegateExecution execution) {
        if (context.cvm().isEmpty()) {
            throw new BpmnError(HOOK_FAILED, context.slot() + " has no CVM");
        }
        LightsOut lightsOut = context.spec().getLightsOut();
        int port = context.holdBackAgentPort();
        SequenceEndpoint.Position position = new SequenceEndpoint(context.http("sequence endpoint", port)).readPosition(lightsOut.getSequencePath());
        return SequenceAnswer.of(execution, position.generation(), position.number(), "GET " + lightsOut.getSequencePath() + " on port " + port);
    }
}
