package com.statefulcvm.fleet.healing;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Which node runs each replica set's health monitor: one lease per set, stored in the database that every node
 * shares. A node claims the sets nobody holds (never claimed, released, or whose holder stopped renewing), renews
 * what it holds, and gives sets up to a node with fewer. Every time is the database's ({@link #now()}), so the
 * nodes' clocks do not matter. The set's row is also the lock every heal start of the set takes first.
 */
public interface MonitorLeases {

    /** The database's clock: leases are compared with it and with nothing else. */
    Instant now();

    /**
     * This node is alive until {@code until}.
     *
     * @return the nodes alive at {@code now}, this one included, in a stable order
     */
    List<String> heartbeat(String node, Instant now, Instant until);

    /** Extends every lease the node holds to {@code until}; answers the sets it holds after the call. */
    Set<String> renew(String node, Instant until);

    /**
     * Takes the set's lease when nobody holds it or its holder's lease ended before {@code now}.
     *
     * @return true when the node holds the lease after the call
     */
    boolean claim(String replicaSet, String node, Instant now, Instant until);

    /** Gives the set's lease up, if the node holds it. */
    void release(String replicaSet, String node);

    /** Sets whose lease is held by a node other than {@code node} and valid at {@code now}. */
    Set<String> heldByOthers(String node, Instant now);

    /**
     * Locks the set's row until the caller's transaction ends and answers whether {@code node} still holds its lease:
     * a round's writes and starts go ahead only then, so that a node that lost the set (paused longer than its lease)
     * never acts on it beside the new holder.
     */
    boolean lockIfHeld(String replicaSet, String node);

    /**
     * Locks the set's row until the caller's transaction ends. Every heal start of the set takes this lock before it
     * looks at the running heals, so that two starts for one set (the monitor, an operator, two nodes) are decided one
     * after the other, the second seeing the first's heal.
     */
    void lockForHealStart(String replicaSet);

    Optional<MonitorLease> lease(String replicaSet);

    /** What the monitor says of the set now; written only when it changed. */
    void saveStage(String replicaSet, String stage, Instant at);

    /** A node that stops cleanly: its leases are released and its heartbeat removed, so others take over at once. */
    void leave(String node);

    /** One set's lease and the monitor's last word on it. */
    record MonitorLease(String replicaSet, String owner, Instant leaseUntil, String stage, Instant stageAt) {
    }
}
