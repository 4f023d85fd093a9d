package com.statefulcvm.delegates.failover;

import com.statefulcvm.connectors.workload.WorkloadApiException;
import com.statefulcvm.connectors.workload.patroni.PatroniClient;
import com.statefulcvm.connectors.workload.patroni.PatroniCluster;
import com.statefulcvm.connectors.workload.patroni.PatroniMember;
import com.statefulcvm.connectors.workload.patroni.PatroniStatus;
import com.statefulcvm.delegates.support.SlotReader;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.failover.FailoverCandidate;
import com.statefulcvm.fleet.failover.Lsn;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.camunda.bpm.engine.delegate.JavaDelegate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import com.statefulcvm.fleet.admission.FenceRegistry;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static com.statefulcvm.delegates.procedure.FailoverVariables.*;
import static com.statefulcvm.delegates.procedure.RolloutVariables.STAGE;

/**
 * "Choose the replica with the most recent data" ({@link FailoverCandidate}). The members come from Patroni's
 * {@code /cluster} (only a member in the DCS can be promoted), their WAL positions from each member's own
 * {@code GET /patroni}: live, where {@code /cluster}'s lag is measured against the lost leader's last position in the
 * DCS, up to a loop old. Releases whose {@code /cluster} reports positions ({@code receive_lsn}, {@code replay_lsn})
 * are read as a fallback for a member that does not answer itself. The positions seen are kept in
 * {@code replicaLsns}, so the choice can be checked afterwards.
 */
@Component("chooseFailoverCandidate")
public class ChooseFailoverCandidate implements JavaDelegate {

    private static final Logger log = LoggerFactory.getLogger(ChooseFailoverCandidate.class);
    /** Camunda's String variables hold 4,000 characters. */
    private static final int MAX_TEXT = 3900;

    private final SlotReader slots;
    private final PatroniSet patroni;
    private final FenceRegistry fences;

    public ChooseFailoverCandidate(SlotReader slots, PatroniSet patroni, FenceRegistry fences) {
        this.slots = slots;
        this.patroni = patroni;
        this.fences = fences;
    }

    @Override
    public void execute(DelegateExecution execution) {
        ReplicaSetSpec spec = slots.spec(execution);
        String oldLeader = (String) execution.getVariable(OLD_LEADER);
        PatroniSet.Members members = patroni.members(spec);
        List<FailoverCandidate.Replica> replicas = new ArrayList<>();
        Optional<PatroniCluster> cluster = members.cluster();
        // a fenced slot's member is never promoted, whatever Patroni reports of it
        Map<String, String> fenced = new HashMap<>();
        fences.fences(spec.getName()).forEach(f -> fenced.put(spec.slotName(f.ordinal()), f.summary()));
        cluster.ifPresent(c -> c.members().stream().filter(m -> m.name() != null)
                .forEach(m -> replicas.add(observe(members, m, fenced.get(m.name())))));
        FailoverCandidate.Choice choice = FailoverCandidate.choose(replicas, oldLeader);
        Map<String, String> lsns = new LinkedHashMap<>();
        replicas.stream().filter(r -> !r.name().equals(oldLeader) && r.dataPosition() != null)
                .forEach(r -> lsns.put(r.name(), r.dataPosition().toString()));
        String reason = cluster.isEmpty() ? "no member's Patroni answers: no replica can be chosen" : choice.reason();
        execution.setVariable(REPLICA_LSNS, lsns);
        execution.setVariable(CANDIDATE, choice.candidateName());
        execution.setVariable(CANDIDATE_LSN, choice.candidate().map(c -> c.dataPosition().toString()).orElse(null));
        execution.setVariable(CANDIDATE_REASON, clip(reason));
        if (!choice.found()) {
            execution.setVariable(FAILOVER_RESULT, Result.NO_CANDIDATE);
        }
        execution.setVariable(STAGE, clip(reason));
        log.info("Failover of {} (old leader {}): {}", spec.getName(), oldLeader, reason);
    }

    private static FailoverCandidate.Replica observe(PatroniSet.Members members, PatroniMember member, String fenced) {
        Optional<PatroniClient> client = members.client(member.name());
        if (client.isPresent()) {
            try {
                PatroniStatus status = client.get().status();
                PatroniStatus.Wal wal = status.wal();
                Lsn received = wal == null || wal.receivedLocation() == null ? null : Lsn.of(wal.receivedLocation());
                Lsn replayed = wal == null || wal.replayedLocation() == null ? null : Lsn.of(wal.replayedLocation());
                return new FailoverCandidate.Replica(member.name(), status.role(), status.state(), member.isNoFailover(),
                        status.timeline(), received != null ? received : reported(member.receiveLsn()),
                        replayed != null ? replayed : reported(member.replayLsn()), fenced);
            } catch (WorkloadApiException unreachable) {
                log.debug("Patroni of {} does not answer: {}", member.name(), unreachable.getMessage());
            }
        }
        return new FailoverCandidate.Replica(member.name(), member.role(), null, member.isNoFailover(), null, null, null, fenced);
    }

    /** A position as {@code /cluster} reports it, {@code X/Y} or {@code unknown}. */
    private static Lsn reported(String text) {
        try {
            return text == null ? null : Lsn.parse(text);
        } catch (IllegalArgumentException unknown) {
            return null;
        }
    }

    static String clip(String text) {
        return text.length() <= MAX_TEXT ? text : text.substring(0, MAX_TEXT) + " …";
    }
}
