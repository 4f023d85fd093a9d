package com.statefulcvm.delegates.hooks;

import com.statefulcvm.delegates.procedure.HookVariables;
import com.statefulcvm.connectors.workload.patroni.PatroniCluster;
import com.statefulcvm.fleet.hooks.PatroniDrain;
import com.statefulcvm.fleet.hooks.PatroniMember;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.springframework.stereotype.Component;

import java.util.List;
import java.util.Set;

/** drain-patroni: "Read the Patroni cluster and decide" what draining this member needs (see {@link PatroniDrain}). */
@Component("decidePatroniDrain")
public class DecidePatroniDrain extends HookStep {

    @Override
    protected Answer run(HookContext context, DelegateExecution execution) {
        if (context.cvm().isEmpty()) {
            execution.setVariable(HookVariables.DRAIN_DECISION, PatroniDrain.Kind.NOT_A_MEMBER.name());
            return Answer.ready(context.slot() + " has no CVM; nothing to drain");
        }
        PatroniDrain.Decision decision = decide(context);
        execution.setVariable(HookVariables.DRAIN_DECISION, decision.kind().name());
        execution.setVariable(HookVariables.SWITCHOVER_CANDIDATE, decision.candidate());
        return new Answer(decision.kind() != PatroniDrain.Kind.WAIT, decision.reason());
    }

    /**
     * What draining the context's member needs, from the cluster as it is now; also what the leader's approval shows
     * before the drain runs.
     */
    public static PatroniDrain.Decision decide(HookContext context) {
        PatroniCluster cluster = context.patroni().cluster();
        Set<String> updated = context.updatedMembers();
        List<PatroniMember> members = cluster.members().stream()
                .map(m -> new PatroniMember(m.name(), m.role(), m.state(), m.lag(), updated.contains(m.name())))
                .toList();
        return PatroniDrain.decide(members, context.member());
    }
}
