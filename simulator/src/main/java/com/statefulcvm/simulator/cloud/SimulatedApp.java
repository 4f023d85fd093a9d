package com.statefulcvm.simulator.cloud;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** An app: its identity, the defaults for new instances, its CVMs (by vm_uuid, oldest first) and its revisions. */
final class SimulatedApp {

    String appId;
    String name;
    String kmsType;
    Instant createdAt;
    /** The public key env variables are encrypted to: {@link SimulatedKms#envPublicKey}, derived from the app id. */
    String envPubkey;
    /**
     * Whether the app's KMS is on chain (an app contract allows compose hashes): then an update to a new compose hash
     * answers 465 until it is committed with a transaction hash ({@link OnChainCommits}).
     */
    boolean onChainKms;
    /** The compose hashes committed with a transaction hash: registered on the app's contract. */
    java.util.Set<String> registeredComposeHashes = new java.util.LinkedHashSet<>();

    String instanceType;
    int diskSize;
    int nodeId;
    String region;

    /** The compose of the latest revision: what a new instance without its own compose copies. */
    Map<String, Object> currentCompose;
    String currentComposeHash;

    List<String> cvmVmUuids = new ArrayList<>();
    /** The vm_uuid of the CVM that leads the app's workload ({@link AppLeadership}); null until one is elected. */
    String leaderVmUuid;
    /**
     * The app's workload members by vm_uuid ({@link AppLeadership}): every CVM that has joined, running or not, until
     * it leaves, is removed or is deleted.
     */
    Map<String, WorkloadMemberState> members = new LinkedHashMap<>();
    /** Members announced through etcd's member add whose CVM has not started yet, oldest first. */
    List<WorkloadMemberState> pendingMembers = new ArrayList<>();
    /** CVMs that left (Consul's leave: back at their next boot) or were removed (etcd: back only once added again). */
    Map<String, WorkloadMemberState.Departure> departures = new LinkedHashMap<>();
    /** The leadership term, one more at each new leader: Patroni's timeline, etcd's and Consul's raft term. */
    long workloadTerm;
    /** The raft index, one more at each change of members or leader. */
    long workloadIndex;
    /**
     * The last transaction the released members committed (Galera's seqno): one more each time a member stops while
     * others run on, so that the last member to stop holds the most recent state.
     */
    long committedSeqno;
    /** Oldest first. */
    List<AppRevision> revisions = new ArrayList<>();

    SimulatedApp() {
        // for the state file
    }
}
