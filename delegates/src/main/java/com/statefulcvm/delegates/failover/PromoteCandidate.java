package com.statefulcvm.delegates.failover;

import com.statefulcvm.connectors.workload.WorkloadApiException;
import com.statefulcvm.connectors.workload.patroni.PatroniActionResult;
import com.statefulcvm.connectors.workload.patroni.PatroniClient;
import com.statefulcvm.connectors.workload.patroni.PatroniCluster;
import com.statefulcvm.connectors.workload.patroni.PatroniMember;
import com.statefulcvm.delegates.support.SlotReader;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.Slots;
import com.statefulcvm.fleet.admission.Fence;
import com.statefulcvm.fleet.admission.FenceRegistry;
import org.camunda.bpm.engine.delegate.BpmnError;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.camunda.bpm.engine.delegate.JavaDelegate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import java.util.Optional;

import static com.statefulcvm.delegates.procedure.FailoverVariables.*;
import static com.statefulcvm.delegates.procedure.RolloutVariables.STAGE;

/**
 * "Promote the candidate": Patroni's {@code POST /failover {"candidate"}}, sent to the candidate itself. Patroni
 * accepts a failover to a named candidate without a leader and in maintenance mode, which is exactly this case; it
 * waits for the result up to {@code 2 × max(10 s, loop_wait)}. Sent once: a job that runs again after a crash, or a
 * candidate that already leads, sends nothing, and whether the promotion took is for "Verify the new leader" to see
 * (Patroni's 503 "Failover status unknown" says the same). A definite refusal (412 "candidate does not exists", 400)
 * ends the failover with {@value FailoverVariables#PROMOTION_REFUSED} and Patroni's reason; a leader that answers
 * again by now (an approval may take long) with {@value FailoverVariables#LEADER_BACK}, nothing sent.
 */
@Component("promoteCandidate")
public class PromoteCandidate implements JavaDelegate {

    private static final Logger log = LoggerFactory.getLogger(PromoteCandidate.class);

    private final SlotReader slots;
    private final PatroniSet patroni;
    private final FenceRegistry fences;

    public PromoteCandidate(SlotReader slots, PatroniSet patroni, FenceRegistry fences) {
        this.slots = slots;
        this.patroni = patroni;
        this.fences = fences;
    }

    @Override
    public void execute(DelegateExecution execution) {
        ReplicaSetSpec spec = slots.spec(execution);
        String candidate = (String) execution.getVariable(CANDIDATE);
        if (Boolean.TRUE.equals(execution.getVariable(FAILOVER_REQUESTED))) {
            execution.setVariable(STAGE, "the promotion of " + candidate + " was requested already");
            return;
        }
        // fenced since it was chosen (an approval may take long): never promoted
        Optional<Fence> fence = Slots.ordinalOf(spec.getName(), candidate).isPresent()
                ? fences.fence(spec.getName(), Slots.ordinalOf(spec.getName(), candidate).getAsInt()) : Optional.empty();
        if (fence.isPresent()) {
            String refused = candidate + " is " + fence.get().summary() + ": not promoted";
            execution.setVariable(FAILOVER_RESULT, Result.PROMOTION_REFUSED);
            execution.setVariable(PROMOTION_ANSWER, refused);
            execution.setVariable(STAGE, refused);
            throw new BpmnError(PROMOTION_REFUSED, refused);
        }
        PatroniSet.Members members = patroni.members(spec);
        Optional<PatroniCluster> cluster = members.cluster(candidate);
        Optional<String> leader = cluster.flatMap(PatroniCluster::leader).map(PatroniMember::name);
        if (leader.filter(candidate::equals).isPresent()) {
            execution.setVariable(FAILOVER_REQUESTED, true);
            execution.setVariable(STAGE, candidate + " leads already; no failover sent");
            return;
        }
        // An approval may have taken hours: a leader that answers now is not to be failed over.
        Optional<String> answering = members.answeringLeader(cluster);
        if (answering.isPresent()) {
            String back = answering.get() + " leads and answers again: the workload recovered by itself; " + candidate + " not promoted";
            execution.setVariable(FAILOVER_RESULT, Result.RECOVERED);
            execution.setVariable(STAGE, back);
            throw new BpmnError(LEADER_BACK, back);
        }
        PatroniClient client = members.client(candidate).orElseThrow(() -> new IllegalStateException(
                "the candidate " + candidate + " has no CVM to reach its Patroni through"));
        String answer;
        try {
            PatroniActionResult result = client.withTimeout(PatroniClient.SWITCHOVER_TIMEOUT).failover(candidate);
            answer = result.status() + " " + result.message();
        } catch (WorkloadApiException e) {
            if (!e.isNoResponse() && !e.isRetryable() && e.status() != 503) {
                String refused = "Patroni refused the failover to " + candidate + ": " + e.getMessage();
                execution.setVariable(FAILOVER_RESULT, Result.PROMOTION_REFUSED);
                execution.setVariable(PROMOTION_ANSWER, ChooseFailoverCandidate.clip(refused));
                execution.setVariable(STAGE, ChooseFailoverCandidate.clip(refused));
                throw new BpmnError(PROMOTION_REFUSED, refused);
            }
            answer = "no definite answer (" + e.getMessage() + "); the verification will tell";
        }
        execution.setVariable(FAILOVER_REQUESTED, true);
        execution.setVariable(PROMOTION_ANSWER, ChooseFailoverCandidate.clip(answer));
        execution.setVariable(STAGE, ChooseFailoverCandidate.clip("failover to " + candidate + " requested: " + answer));
        log.info("Failover of {}: POST /failover to {}: {}", spec.getName(), candidate, answer);
    }
}
