package com.statefulcvm.delegates.hooks;

import com.statefulcvm.connectors.workload.galera.GaleraAgentClient;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.springframework.stereotype.Component;

/**
 * rejoin-galera: "Let the node take queries again": undoes a drain the node outlived (a restart starts mariadbd with
 * neither set, so mostly there is nothing to undo). Its health gate, the agent's Synced check, has passed already.
 */
@Component("resumeGaleraNode")
public class ResumeGaleraNode extends HookStep {

    @Override
    protected Answer run(HookContext context, DelegateExecution execution) {
        if (context.cvm().isEmpty()) {
            return Answer.ready(context.slot() + " has no CVM; nothing to resume");
        }
        GaleraAgentClient.Resume resume = GaleraAgent.of(context).resume();
        return Answer.ready(context.slot() + " takes client queries again (wsrep_desync OFF), state " + resume.state());
    }
}
