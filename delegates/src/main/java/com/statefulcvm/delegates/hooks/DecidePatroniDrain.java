package com.statefulcvm.delegates.hooks;

import com.statefulcvm.delegates.procedure.HookVariables;
import com.statefulcvm.connectors.workload.patroni.PatroniCluster;
import com.statefulcvm.fleet.hooks.PatroniDrain;
import com.statefulcvm.fleet.hooks.PatroniMember;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.springframework.stereotype.Component;

import java.util.List;
import java.util.Set;

/**
 * drain-patroni: "Read the Patroni cluster and decide" what draining this member needs (see {@link PatroniDrain}). It
 * asks the member's own Patroni REST API, so a member whose CVM is not running (it crashed) is not asked: it serves
 * nothing and leads nothing any more (Patroni's leader key lapses with its TTL), so there is nothing to drain, and the
 * rollout goes on to its own step on the slot. Asking it would never be answered, and the rollout would hold the
 * crashed slot, away from the health monitor's heal, until the operator aborted it (chaos seed 4). A member that runs
 * but does not answer is waited for (the decision is WAIT until it answers, for the diagram's gateway), within the
 * hook's timeout.
 */
@Component("decidePatroniDrain")
public class DecidePatroniDrain extends HookStep {

    @Override
    protected Answer run(HookContext context, DelegateExecution execution) {
        if (context.cvm().isEmpty()) {
            execution.setVariable(HookVariables.DRAIN_DECISION, PatroniDrain.Kind.NOT_A_MEMBER.name());
            return Answer.ready(context.slot() + " has no CVM; nothing to drain");
        }
        if (!context.self().isRunning()) {
            execution.setVariable(HookVariables.DRAIN_DECISION, PatroniDrain.Kind.NOT_A_MEMBER.name());
            return Answer.ready(context.slot() + "'s CVM is " + context.self().status() + "; nothing to drain");
        }
        execution.setVariable(HookVariables.DRAIN_DECISION, PatroniDrain.Kind.WAIT.name());
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
