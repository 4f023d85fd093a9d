package com.statefulcvm.web.healing;

import com.statefulcvm.registry.JdbcMonitorLeases;
import com.statefulcvm.registry.RegistryDatabase;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Nodes sharing the health monitors through one database: every set held by exactly one node, the sets split between
 * the nodes alive, a dead node's sets taken over once its lease has run out (not before), a clean stop's at once, and
 * a node that cannot renew stops trusting its hold before anyone else may claim it.
 */
class MonitorLeaseKeeperTest {

    private static final Duration LEASE = Duration.ofSeconds(15);

    private final RegistryDatabase db = RegistryDatabase.h2();
    /** The database's clock, moved by the test: a node that "dies" is one that stops calling keep(). */
    private final AtomicLong shiftSeconds = new AtomicLong();
    private final JdbcMonitorLeases leases = new JdbcMonitorLeases(db.jdbc, db.transactions) {
        @Override
        public Instant now() {
            return super.now().plusSeconds(shiftSeconds.get());
        }
    };
    private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
    private final List<String> sets = IntStream.range(0, 8).mapToObj(i -> "set-" + i).toList();

    private MonitorLeaseKeeper node(String name) {
        return new MonitorLeaseKeeper(leases, name, LEASE, Duration.ofSeconds(2), nanos::get);
    }

    @Test
    void aLoneNodeHoldsEverySet() {
        MonitorLeaseKeeper a = node("a");
        assertThat(a.trusted()).as("nothing renewed yet").isFalse();
        assertThat(a.keep(sets)).containsExactlyInAnyOrderElementsOf(sets);
        assertThat(a.trusted()).isTrue();
    }

    @Test
    void twoNodesSplitTheSetsAndNoSetIsHeldTwice() {
        MonitorLeaseKeeper a = node("a");
        MonitorLeaseKeeper b = node("b");
        a.keep(sets);
        Set<String> heldByA = Set.of();
        Set<String> heldByB = Set.of();
        for (int pass = 0; pass < 3; pass++) {
            heldByB = b.keep(sets);
            heldByA = a.keep(sets);
        }
        assertThat(heldByA).hasSize(4);
        assertThat(heldByB).hasSize(4);
        Set<String> both = new HashSet<>(heldByA);
        both.retainAll(heldByB);
        assertThat(both).isEmpty();
        Set<String> all = new HashSet<>(heldByA);
        all.addAll(heldByB);
        assertThat(all).containsExactlyInAnyOrderElementsOf(sets);
    }

    @Test
    void aDeadNodesSetsMoveOnlyOnceItsLeaseHasRunOut() {
        MonitorLeaseKeeper a = node("a");
        MonitorLeaseKeeper b = node("b");
        a.keep(sets);
        b.keep(sets);
        Set<String> heldByA = a.keep(sets);
        assertThat(heldByA).isNotEmpty();

        // a stops renewing; within its lease b may not take its sets
        shiftSeconds.set(LEASE.toSeconds() - 5);
        assertThat(b.keep(sets)).doesNotContainAnyElementsOf(heldByA);
        shiftSeconds.set(LEASE.toSeconds() + 1);
        assertThat(b.keep(sets)).containsExactlyInAnyOrderElementsOf(sets);
    }

    @Test
    void aCleanStopLeavesTheSetsToTheOthersAtOnce() {
        MonitorLeaseKeeper a = node("a");
        MonitorLeaseKeeper b = node("b");
        a.keep(sets);
        b.keep(sets);
        a.keep(sets);
        a.leave();
        assertThat(a.trusted()).isFalse();
        assertThat(b.keep(sets)).containsExactlyInAnyOrderElementsOf(sets);
    }

    @Test
    void aNodeThatCannotRenewStopsTrustingItsHoldBeforeItRunsOut() {
        MonitorLeaseKeeper a = node("a");
        a.keep(sets);
        nanos.addAndGet(LEASE.minusSeconds(3).toNanos());
        assertThat(a.trusted()).isTrue();
        nanos.addAndGet(Duration.ofSeconds(1).toNanos());
        assertThat(a.trusted()).as("within the margin of the lease's end").isFalse();
    }

    @Test
    void aSetThatLeftTheFleetIsReleased() {
        MonitorLeaseKeeper a = node("a");
        a.keep(sets);
        assertThat(a.keep(sets.subList(0, 5))).hasSize(5);
        assertThat(leases.lease("set-7").orElseThrow().owner()).isNull();
    }
}
