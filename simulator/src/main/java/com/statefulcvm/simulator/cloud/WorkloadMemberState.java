package com.statefulcvm.simulator.cloud;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * One member of an app's simulated workload, as the state file keeps it: the etcd member ID (decimal, as etcd's JSON
 * gateway writes it), the peer URLs it was announced with, and whether it is a learner. Mutable; used only under
 * {@link SimulatedCloud}'s lock.
 */
final class WorkloadMemberState {

    String id;
    List<String> peerUrls = new ArrayList<>();
    boolean learner;
    /**
     * The hold-back agent's view (Galera's grastate.dat seqno): the last transaction the member committed before it
     * stopped; -1 while it has never stopped (it follows the cluster while it runs).
     */
    long seqno = -1;
    /** Booted with data while no member ran released: its workload waits for the orchestrator's release. */
    boolean heldBack;
    /** Drained through the agent (wsrep_desync, client queries refused) until resumed or stopped. */
    boolean desynced;

    WorkloadMemberState() {
        // for the state file
    }

    WorkloadMemberState(String id, List<String> peerUrls, boolean learner) {
        this.id = id;
        this.peerUrls = new ArrayList<>(peerUrls);
        this.learner = learner;
    }

    /**
     * A CVM that left the workload while it ran with {@code bootedAt}. One that left (Consul's leave) joins again when
     * it boots again, as Consul's {@code retry_join} does; one that was removed (etcd's member remove) never does by
     * itself, since etcd refuses a removed member ID: only a member announced anew (member add) takes it back.
     */
    static final class Departure {

        boolean removed;
        Instant bootedAt;

        Departure() {
            // for the state file
        }

        Departure(boolean removed, Instant bootedAt) {
            this.removed = removed;
            this.bootedAt = bootedAt;
        }
    }
}
