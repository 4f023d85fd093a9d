package com.statefulcvm.web.healing;

import com.statefulcvm.fleet.healing.MonitorLeases;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * This node's share of the health monitors: which sets it holds the lease of. Each pass (every third of a lease) it
 * says it is alive, renews what it holds, gives up what is beyond its fair share (the sets divided by the nodes alive)
 * and claims sets that nobody holds, up to that share. A node that dies stops renewing, and after one lease the others
 * claim its sets; a node that joins gets its share from the others within a pass or two.
 * <p>
 * A node trusts its own hold only until one lease after the moment it started renewing, by its own monotonic clock,
 * less a margin: it stops running rounds of its sets before any other node may claim them, whatever the clocks say.
 */
class MonitorLeaseKeeper {

    private final MonitorLeases leases;
    private final String node;
    private final Duration lease;
    private final Duration margin;
    private final LongSupplier nanos;
    private volatile long trustedUntilNanos = Long.MIN_VALUE;

    MonitorLeaseKeeper(MonitorLeases leases, String node, Duration lease, Duration margin, LongSupplier nanos) {
        this.leases = leases;
        this.node = node;
        this.lease = lease;
        this.margin = margin;
        this.nanos = nanos;
    }

    String node() {
        return node;
    }

    /**
     * One pass over the leases.
     *
     * @param wanted every set that has a monitor (in the fleet, monitored or observed), in a stable order
     * @return the sets this node holds after the pass
     */
    Set<String> keep(Collection<String> wanted) {
        long startedAt = nanos.getAsLong();
        Instant now = leases.now();
        Instant until = now.plus(lease);
        List<String> alive = leases.heartbeat(node, now, until);
        int nodes = Math.max(1, alive.size());
        int share = (wanted.size() + nodes - 1) / nodes;

        Set<String> held = leases.renew(node, until);
        trustedUntilNanos = startedAt + lease.minus(margin).toNanos();
        held.retainAll(releaseGone(held, wanted));
        if (held.size() > share) {
            List<String> over = new ArrayList<>(held).subList(share, held.size());
            for (String set : List.copyOf(over)) {
                leases.release(set, node);
                held.remove(set);
            }
        }
        if (held.size() < share) {
            Set<String> others = leases.heldByOthers(node, now);
            for (String set : wanted) {
                if (held.size() >= share) {
                    break;
                }
                if (!held.contains(set) && !others.contains(set) && leases.claim(set, node, now, until)) {
                    held.add(set);
                }
            }
        }
        return held;
    }

    /** Sets that left the fleet are released, so that their rows do not look held. */
    private Set<String> releaseGone(Set<String> held, Collection<String> wanted) {
        Set<String> inFleet = Set.copyOf(wanted);
        Set<String> kept = new LinkedHashSet<>(held);
        for (String set : held) {
            if (!inFleet.contains(set)) {
                leases.release(set, node);
                kept.remove(set);
            }
        }
        return kept;
    }

    /** True while this node may act on the sets it holds (its last renewal is recent enough). */
    boolean trusted() {
        long until = trustedUntilNanos;
        return until != Long.MIN_VALUE && nanos.getAsLong() - until < 0;
    }

    /** A clean stop: every set is left to the other nodes at once. */
    void leave() {
        trustedUntilNanos = Long.MIN_VALUE;
        leases.leave(node);
    }
}
