package com.statefulcvm.delegates.failover;

import com.statefulcvm.connectors.workload.patroni.PatroniCluster;
import com.statefulcvm.connectors.workload.patroni.PatroniMember;
import com.statefulcvm.delegates.support.SlotReader;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.camunda.bpm.engine.delegate.JavaDelegate;
import org.springframework.stereotype.Component;

import java.util.Optional;

import static com.statefulcvm.delegates.procedure.FailoverVariables.*;
import static com.statefulcvm.delegates.procedure.RolloutVariables.STAGE;

/**
 * "Verify the new leader": the candidate holds the leader lock in Patroni's {@code /cluster}, runs, and says so
 * itself ({@code GET /leader} 200). The diagram polls until then, bounded by {@code failover.verifyTimeoutSeconds}.
 */
@Component("verifyNewLeader")
public class VerifyNewLeader implements JavaDelegate {

    private final SlotReader slots;
    private final PatroniSet patroni;

    public VerifyNewLeader(SlotReader slots, PatroniSet patroni) {
        this.slots = slots;
        this.patroni = patroni;
    }

    @Override
    public void execute(DelegateExecution execution) {
        String candidate = (String) execution.getVariable(CANDIDATE);
        PatroniSet.Members members = patroni.members(slots.spec(execution));
        Optional<PatroniMember> leader = members.cluster(candidate).flatMap(PatroniCluster::leader);
        execution.setVariable(NEW_LEADER, leader.map(PatroniMember::name).orElse(null));
        boolean verified = leader.filter(l -> l.name().equals(candidate) && l.isRunning()).isPresent() && members.saysItLeads(candidate);
        execution.setVariable(NEW_LEADER_VERIFIED, verified);
        if (verified) {
            execution.setVariable(FAILOVER_RESULT, Result.FAILED_OVER);
            execution.setVariable(STAGE, candidate + " leads and runs");
        } else {
            execution.setVariable(STAGE, "waiting for " + candidate + " to lead: leader now "
                    + leader.map(l -> l.name() + " (" + l.state() + ")").orElse("none"));
        }
    }
}
