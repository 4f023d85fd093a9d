package com.statefulcvm.delegates.hooks;

import com.statefulcvm.delegates.procedure.HookVariables;
import com.statefulcvm.fleet.hooks.QuorumBudget;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.springframework.stereotype.Component;

/** drain-etcd: "Check the quorum budget": would the healthy voters left still be a majority? Also: does it lead? */
@Component("checkEtcdQuorum")
public class CheckEtcdQuorum extends HookStep {

    @Override
    protected Answer run(HookContext context, DelegateExecution execution) {
        execution.setVariable(HookVariables.IS_LEADER, false);
        if (context.cvm().isEmpty()) {
            return Answer.ready(context.slot() + " has no CVM; nothing to drain");
        }
        EtcdView view = EtcdView.read(context);
        if (view.members().byName(context.member()).isEmpty()) {
            return Answer.ready(context.member() + " is not a member of the etcd cluster; nothing to drain");
        }
        QuorumBudget.Verdict verdict = QuorumBudget.raft(view.members().voters().size(), view.healthyVoters().size(), view.self() != null);
        execution.setVariable(HookVariables.IS_LEADER, view.self() != null && view.self().isLeader());
        return new Answer(verdict.allowed(), "etcd: " + verdict.reason());
    }
}
