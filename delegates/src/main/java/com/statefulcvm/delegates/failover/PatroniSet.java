package com.statefulcvm.delegates.failover;

import com.statefulcvm.delegates.support.SetCvms;
import com.statefulcvm.connectors.health.InstanceUrlTemplate;
import com.statefulcvm.connectors.phala.PhalaCloudClient;
import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.connectors.workload.WorkloadApiException;
import com.statefulcvm.connectors.workload.patroni.PatroniClient;
import com.statefulcvm.connectors.workload.patroni.PatroniCluster;
import com.statefulcvm.delegates.hooks.HookContext;
import com.statefulcvm.delegates.support.ReplicaSets;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.Slots;
import org.springframework.stereotype.Component;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A Patroni replica set as the failover steps reach it: the CVMs of its slots, and each member's REST API through
 * that CVM's gateway route, as the drain and rejoin hooks reach it ({@link HookContext}). A member is named after its
 * slot. Nothing here assumes a member answers: a lost leader, by definition, does not.
 */
@Component
public class PatroniSet {

    public static final String PATRONI = "patroni";

    private final ReplicaSets replicaSets;
    private final PhalaCloudClient phala;
    private final InstanceUrlTemplate urls;

    public PatroniSet(ReplicaSets replicaSets, PhalaCloudClient phala, InstanceUrlTemplate urls) {
        this.replicaSets = replicaSets;
        this.phala = phala;
        this.urls = urls;
    }

    public Members members(ReplicaSetSpec spec) {
        List<CvmInfo> slots = SetCvms.asSlots(spec, phala.listAppCvms(replicaSets.appId(spec))).stream()
                .filter(c -> c.name() != null && Slots.ordinalOf(spec.getName(), c.name()).isPresent())
                .toList();
        return new Members(spec, slots, HookContext.ofSet(spec, slots, urls));
    }

    /** The set's CVMs now, and a Patroni client for each. */
    public record Members(ReplicaSetSpec spec, List<CvmInfo> cvms, HookContext context) {

        public Optional<CvmInfo> cvm(String member) {
            return context.cvmOf(member);
        }

        /** A member's own REST API; empty when its slot has no CVM, or the CVM has no identity to route to yet. */
        public Optional<PatroniClient> client(String member) {
            return cvm(member).filter(c -> c.instanceId() != null && !c.instanceId().isBlank()).map(context::patroni);
        }

        /**
         * Leadership as the member itself states it ({@code GET /leader} 200): the DCS keeps naming a dead leader until
         * its key expires. A member that does not answer does not lead.
         */
        public boolean saysItLeads(String member) {
            try {
                return client(member).map(PatroniClient::isLeader).orElse(false);
            } catch (WorkloadApiException unreachable) {
                return false;
            }
        }

        /** The member {@code /cluster} names as leader, running, and saying so itself; empty when there is none. */
        public Optional<String> answeringLeader(Optional<PatroniCluster> cluster) {
            return cluster.flatMap(PatroniCluster::leader).filter(l -> l.isRunning() && saysItLeads(l.name()))
                    .map(com.statefulcvm.connectors.workload.patroni.PatroniMember::name);
        }

        /**
         * {@code GET /cluster} from the first member that answers, {@code preferred} first (a member that is up sees the
         * DCS as the others do); empty when none answers with a member list.
         */
        public Optional<PatroniCluster> cluster(String... preferred) {
            List<String> order = new ArrayList<>(List.of(preferred));
            cvms.stream().map(CvmInfo::name).sorted().filter(n -> !order.contains(n)).forEach(order::add);
            for (String member : order) {
                Optional<PatroniClient> client = member == null ? Optional.empty() : client(member);
                if (client.isEmpty()) {
                    continue;
                }
                try {
                    PatroniCluster cluster = client.get().cluster();
                    // a real member always lists itself: an empty answer is not Patroni speaking
                    if (!cluster.members().isEmpty()) {
                        return Optional.of(cluster);
                    }
                } catch (WorkloadApiException unreachable) {
                    // the next member may answer
                }
            }
            return Optional.empty();
        }
    }
}
