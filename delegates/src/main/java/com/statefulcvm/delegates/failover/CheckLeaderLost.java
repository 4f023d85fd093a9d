package com.statefulcvm.delegates.failover;

import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.connectors.workload.patroni.PatroniCluster;
import com.statefulcvm.connectors.workload.patroni.PatroniMember;
import com.statefulcvm.delegates.support.RolloutSettings;
import com.statefulcvm.delegates.support.SlotReader;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.failover.Failover;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.camunda.bpm.engine.delegate.JavaDelegate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

import static com.statefulcvm.delegates.procedure.FailoverVariables.*;
import static com.statefulcvm.delegates.procedure.RolloutVariables.STAGE;

/**
 * "Check whether the leader is lost": asks the workload, not the CVM list. The leader is lost when Patroni's
 * {@code /cluster} names no leader, or names one whose own REST API does not confirm it ({@code GET /leader} 200):
 * a leader whose process died keeps its key in the DCS until the key's TTL runs out. A lost leader is given
 * {@code failover.graceSeconds} to be replaced by the workload's own election, checked again every health-check
 * interval; a paused cluster (Patroni maintenance mode) never elects one itself, so it is not waited for.
 */
@Component("checkLeaderLost")
public class CheckLeaderLost implements JavaDelegate {

    private static final Logger log = LoggerFactory.getLogger(CheckLeaderLost.class);

    private final SlotReader slots;
    private final PatroniSet patroni;
    private final RolloutSettings settings;
    private final Clock clock;

    public CheckLeaderLost(SlotReader slots, PatroniSet patroni, RolloutSettings settings, Clock clock) {
        this.slots = slots;
        this.patroni = patroni;
        this.settings = settings;
        this.clock = clock;
    }

    @Override
    public void execute(DelegateExecution execution) {
        ReplicaSetSpec spec = slots.spec(execution);
        Failover failover = spec.getFailover();
        execution.setVariable(WORKLOAD_TYPE, spec.getWorkloadType());
        execution.setVariable(FAILOVER_APPROVAL, failover.getApproval().name());
        execution.setVariable(LEADER_POLL_INTERVAL, Duration.ofSeconds(spec.getHealthCheck().getIntervalSeconds()).toString());
        execution.setVariable(CVM_POLL_INTERVAL, settings.cvmPollIntervalIso());
        execution.setVariable(VERIFY_TIMEOUT, Duration.ofSeconds(failover.getVerifyTimeoutSeconds()).toString());
        if (!PatroniSet.PATRONI.equals(spec.getWorkloadType())) {
            verdict(execution, Verdict.REFUSED, "failover.bpmn fails over workload type patroni only; replica set '"
                    + spec.getName() + "' is " + spec.getWorkloadType());
            return;
        }
        PatroniSet.Members members = patroni.members(spec);
        Optional<PatroniCluster> cluster = members.cluster();
        Optional<PatroniMember> listed = cluster.flatMap(PatroniCluster::leader);
        Optional<String> leader = members.answeringLeader(cluster);
        if (leader.isPresent()) {
            if (execution.getVariable(GRACE_UNTIL) == null) {
                verdict(execution, Verdict.HEALTHY, leader.get() + " leads and answers; no failover needed");
            } else {
                boolean oldOneBack = leader.get().equals(execution.getVariable(OLD_LEADER));
                verdict(execution, Verdict.RECOVERED, leader.get() + " leads and answers: the workload elected a leader itself"
                        + (oldOneBack ? " (the old leader is back)" : ""));
            }
            return;
        }
        String oldLeader = listed.map(PatroniMember::name).orElseGet(() -> missingMember(members, cluster));
        if (oldLeader != null && execution.getVariable(OLD_LEADER) == null) {
            execution.setVariable(OLD_LEADER, oldLeader);
        }
        String who = (String) execution.getVariable(OLD_LEADER);
        String lost = cluster.isEmpty() ? "no member's Patroni answers"
                : listed.map(l -> "the leader " + l.name() + " does not answer as leader")
                .orElse("Patroni has no leader" + (who == null ? "" : " (last leader " + who + ")"));
        boolean paused = cluster.map(PatroniCluster::isPaused).orElse(false);
        execution.setVariable(AUTO_FAILOVER_PAUSED, paused);
        Instant now = clock.instant();
        Object graceUntil = execution.getVariable(GRACE_UNTIL);
        Instant until = graceUntil == null ? now.plusSeconds(failover.getGraceSeconds()) : Instant.parse(graceUntil.toString());
        if (graceUntil == null) {
            execution.setVariable(GRACE_UNTIL, until.toString());
        }
        if (paused) {
            verdict(execution, Verdict.LOST, lost + "; automatic failover is paused in Patroni, so it will not elect one itself");
        } else if (!now.isBefore(until)) {
            verdict(execution, Verdict.LOST, lost + "; Patroni did not elect a leader itself within " + failover.getGraceSeconds() + " s");
        } else {
            verdict(execution, Verdict.WAITING, lost + "; waiting until " + until + " for Patroni to elect a leader itself");
        }
    }

    /**
     * Once its key has expired, the DCS no longer names the old leader, nor lists it: it is the one slot whose member
     * is missing. With several missing no one can tell which led.
     */
    private static String missingMember(PatroniSet.Members members, Optional<PatroniCluster> cluster) {
        if (cluster.isEmpty()) {
            return null;
        }
        Set<String> listed = cluster.get().members().stream().map(PatroniMember::name).collect(Collectors.toSet());
        List<String> missing = members.cvms().stream().map(CvmInfo::name).filter(n -> !listed.contains(n)).toList();
        return missing.size() == 1 ? missing.get(0) : null;
    }

    private static void verdict(DelegateExecution execution, Verdict verdict, String stage) {
        execution.setVariable(LEADER_VERDICT, verdict.name());
        switch (verdict) {
            case HEALTHY -> execution.setVariable(FAILOVER_RESULT, Result.NOT_NEEDED);
            case RECOVERED -> execution.setVariable(FAILOVER_RESULT, Result.RECOVERED);
            case REFUSED -> execution.setVariable(FAILOVER_RESULT, Result.REFUSED);
            default -> { }
        }
        execution.setVariable(STAGE, stage);
        log.info("Failover of {}: {}", execution.getVariable(REPLICA_SET), stage);
    }
}
