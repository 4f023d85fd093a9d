package com.statefulcvm.simulator.cloud;

import java.util.List;

/**
 * One member of an app's simulated workload, as every member's API reports it.
 *
 * @param name     the CVM's name (Patroni's member name, etcd's {@code --name}, Consul's node name); null for an etcd
 *                 member announced by member add whose CVM has not started yet
 * @param id       the etcd member ID, decimal
 * @param raftId   Consul's raft ID: the CVM's vm_uuid (null while pending)
 * @param address  the CVM's internal IP (null while pending)
 * @param running  the CVM runs with no operation in flight (a stopped member stays a member of etcd and Consul)
 * @param healthy  running, and its workload not marked unhealthy
 */
public record WorkloadMember(String name, String id, String raftId, String address, List<String> peerUrls,
        boolean running, boolean healthy, boolean leader, boolean learner) {

    public WorkloadMember {
        peerUrls = List.copyOf(peerUrls);
    }

    /** Announced by etcd's member add, its CVM not started yet. */
    public boolean pending() {
        return name == null;
    }
}
