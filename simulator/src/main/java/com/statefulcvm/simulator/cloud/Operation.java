package com.statefulcvm.simulator.cloud;

import java.time.Instant;
import java.util.List;

/**
 * An operation in flight on one CVM: the statuses still to come ({@link Hop}s, each entered after its delay),
 * the final status it aims at ({@link #target}) and its correlation id. Mutable, guarded by {@link SimulatedCloud}.
 */
final class Operation {

    /** Enter {@code status} {@code delayMs} after the previous hop. */
    record Hop(String status, long delayMs) {
    }

    OperationType type;
    String correlationId;
    Instant startedAt;
    String target;
    List<Hop> hops;
    int nextHop;

    Operation() {
        // for the state file
    }

    Operation(OperationType type, String correlationId, Instant startedAt, List<Hop> hops) {
        this.type = type;
        this.correlationId = correlationId;
        this.startedAt = startedAt;
        this.hops = List.copyOf(hops);
        this.target = hops.get(hops.size() - 1).status();
    }

    boolean hasNextHop() {
        return nextHop < hops.size();
    }

    Hop nextHop() {
        return hops.get(nextHop);
    }
}
