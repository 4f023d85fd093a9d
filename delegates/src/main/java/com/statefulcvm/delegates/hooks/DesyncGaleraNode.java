package com.statefulcvm.delegates.hooks;

import com.statefulcvm.connectors.workload.galera.GaleraAgentClient;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.springframework.stereotype.Component;

/**
 * drain-galera: "Desync the node and wait until it has applied what it received". Through the compose's hold-back
 * agent: the node stops taking client queries (clients and clustercheck move to the others) and no longer holds the
 * group back through flow control; ready once its receive queue is empty, so nothing the group sent it is cut off by
 * the stop. A node whose CVM does not run has nothing to drain.
 */
@Component("desyncGaleraNode")
public class DesyncGaleraNode extends HookStep {

    @Override
    protected Answer run(HookContext context, DelegateExecution execution) {
        if (context.cvm().isEmpty() || !context.cvm().get().isRunning()) {
            return Answer.ready(context.slot() + " does not run; nothing to drain");
        }
        GaleraAgentClient.Drain drain = GaleraAgent.of(context).drain();
        String state = "wsrep_desync ON, client queries refused, state " + drain.state() + ", receive queue "
                + drain.recvQueue();
        return drain.drained() ? Answer.ready(context.slot() + " drained: " + state)
                : Answer.notYet("waiting for " + context.slot() + " to apply what it received: " + state);
    }
}
