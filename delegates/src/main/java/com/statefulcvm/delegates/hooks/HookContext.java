package com.statefulcvm.delegates.hooks;

import com.statefulcvm.connectors.health.InstanceUrlTemplate;
import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.connectors.workload.WorkloadHttp;
import com.statefulcvm.connectors.workload.consul.ConsulClient;
import com.statefulcvm.connectors.workload.etcd.EtcdClient;
import com.statefulcvm.connectors.workload.patroni.PatroniClient;
import com.statefulcvm.fleet.ComposeText;
import com.statefulcvm.fleet.ReplicaSetSpec;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What a drain or rejoin step works with: the set, the slot, the slot's CVM (empty when Phala no longer lists it),
 * every CVM of the set's app, and admin clients addressed through each instance's gateway URL. A workload member is
 * named after its slot (Patroni's {@code name}, etcd's {@code --name}, Consul's node name), which is how a step finds
 * "itself" in the workload's own membership.
 */
public record HookContext(ReplicaSetSpec spec, String slot, Optional<CvmInfo> cvm, List<CvmInfo> appCvms,
                          String targetCompose, InstanceUrlTemplate urls) {

    /**
     * A set as a whole, for a procedure that works on the set rather than on one slot (the failover): every CVM of
     * the set's app, reached the same way; {@link #self()} has no meaning there.
     */
    public static HookContext ofSet(ReplicaSetSpec spec, List<CvmInfo> appCvms, InstanceUrlTemplate urls) {
        return new HookContext(spec, null, Optional.empty(), appCvms, null, urls);
    }

    public String member() {
        return slot;
    }

    public Duration timeout() {
        return Duration.ofSeconds(spec.getHealthCheck().getTimeoutSeconds());
    }

    public int adminPort() {
        return spec.adminPort();
    }

    public Optional<CvmInfo> cvmOf(String member) {
        return appCvms.stream().filter(c -> member.equals(c.name())).findFirst();
    }

    /** Members whose CVM already runs the rollout's target compose. */
    public Set<String> updatedMembers() {
        return appCvms.stream().filter(c -> ComposeText.same(c.dockerCompose(), targetCompose)).map(CvmInfo::name)
                .collect(Collectors.toSet());
    }

    public URI adminUri(CvmInfo cvm) {
        return urls.resolve(cvm, adminPort(), "");
    }

    public PatroniClient patroni() {
        return patroni(self());
    }

    public PatroniClient patroni(CvmInfo cvm) {
        return new PatroniClient(adminUri(cvm), timeout());
    }

    public EtcdClient etcd(CvmInfo cvm) {
        return new EtcdClient(adminUri(cvm), timeout());
    }

    public ConsulClient consul() {
        return new ConsulClient(adminUri(self()), timeout());
    }

    /** The port of the compose's hold-back agent: the set's lights-out sequence port, else its health check's. */
    public int holdBackAgentPort() {
        return spec.getLightsOut().sequencePortOr(spec.getHealthCheck().getHttp().getPort());
    }

    public WorkloadHttp http(String workload, int port) {
        return new WorkloadHttp(workload, urls.resolve(self(), port, ""), timeout(), WorkloadHttp.sharedHttpClient());
    }

    public CvmInfo self() {
        return cvm.orElseThrow(() -> new IllegalStateException("slot " + slot + " has no CVM"));
    }
}
