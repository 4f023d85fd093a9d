package com.statefulcvm.delegates.lightsout;

import com.statefulcvm.fleet.QuorumRule;
import com.statefulcvm.fleet.WorkloadCatalog;
import com.statefulcvm.fleet.lightsout.SequenceNumbers;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.camunda.bpm.engine.delegate.JavaDelegate;
import org.springframework.stereotype.Component;

import java.util.ArrayList;
import java.util.List;

import static com.statefulcvm.delegates.procedure.LightsOutVariables.QUORUM_RULE;
import static com.statefulcvm.delegates.procedure.LightsOutVariables.SEED;
import static com.statefulcvm.delegates.procedure.LightsOutVariables.SEED_QUORUM_PARTNERS;
import static com.statefulcvm.delegates.procedure.ProcedureVariables.WORKLOAD_TYPE;
import static com.statefulcvm.delegates.procedure.RolloutVariables.STAGE;

/**
 * "Choose the members the seed needs for a quorum", by its workload type's rule: a store that serves from one member
 * (Patroni, a generic compose) needs none; a raft store (etcd, Consul) needs a majority before its seed can pass a health gate, so the most recent
 * others ({@link SequenceNumbers#quorumPartnersOf}) are attested and released right after the seed. Decided once the
 * seed is final (after an operator's override too).
 */
@Component("chooseSeedQuorumPartners")
public class ChooseSeedQuorumPartners implements JavaDelegate {

    @Override
    public void execute(DelegateExecution execution) {
        SequenceNumbers numbers = ChooseLightsOutSeed.numbers(execution);
        String seed = (String) execution.getVariable(SEED);
        int quorum = quorumRule(execution).of(numbers.slots().size());
        List<String> partners = numbers.quorumPartnersOf(seed, quorum);
        execution.setVariable(SEED_QUORUM_PARTNERS, new ArrayList<>(partners));
        execution.setVariable(STAGE, partners.isEmpty() ? seed + " serves alone: it is health-gated before any other member joins"
                : "a quorum is " + quorum + " of " + numbers.slots().size() + ": " + String.join(", ", partners)
                + " (the most recent after " + seed + ") are attested and released with it, before its health gate");
    }

    /** The plan's rule; a recovery planned before the plan recorded one goes by its built-in type's. */
    private static QuorumRule quorumRule(DelegateExecution execution) {
        Object rule = execution.getVariable(QUORUM_RULE);
        return rule != null ? QuorumRule.parse(rule.toString())
                : WorkloadCatalog.BUILT_IN.of((String) execution.getVariable(WORKLOAD_TYPE)).quorumRule();
    }
}
