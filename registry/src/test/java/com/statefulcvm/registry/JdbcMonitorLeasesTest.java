package com.statefulcvm.registry;

import com.statefulcvm.fleet.healing.MonitorLeases.MonitorLease;
import org.junit.jupiter.api.Test;
import org.springframework.transaction.support.TransactionTemplate;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The health monitors' leases (migration V23) on a real database: one holder per set, a lease that another node may
 * take only once it has run out, the lock every heal start of a set waits for. {@link JdbcMonitorLeasesOnPostgresTest}
 * runs the same on PostgreSQL.
 */
class JdbcMonitorLeasesTest {

    RegistryDatabase database() {
        return RegistryDatabase.h2();
    }

    private final RegistryDatabase db = database();
    private final JdbcMonitorLeases leases = new JdbcMonitorLeases(db.jdbc, db.transactions);

    @Test
    void aSetIsHeldByOneNodeUntilItsLeaseRunsOut() {
        Instant now = leases.now();
        assertThat(leases.claim("web", "a", now, now.plusSeconds(15))).isTrue();
        assertThat(leases.claim("web", "b", now, now.plusSeconds(15))).as("a's lease runs").isFalse();
        assertThat(leases.heldByOthers("b", now)).containsExactly("web");
        assertThat(leases.heldByOthers("a", now)).isEmpty();

        Instant later = now.plusSeconds(16);
        assertThat(leases.heldByOthers("b", later)).as("a stopped renewing").isEmpty();
        assertThat(leases.claim("web", "b", later, later.plusSeconds(15))).isTrue();
        assertThat(leases.lease("web").map(MonitorLease::owner)).contains("b");
        assertThat(leases.renew("a", later.plusSeconds(15))).as("a lost it").isEmpty();
    }

    @Test
    void renewingExtendsEveryLeaseTheNodeHoldsAndReleasingFreesOne() {
        Instant now = leases.now();
        leases.claim("s1", "a", now, now.plusSeconds(15));
        leases.claim("s2", "a", now, now.plusSeconds(15));
        assertThat(leases.renew("a", now.plusSeconds(30))).containsExactly("s1", "s2");
        assertThat(leases.lease("s2").map(MonitorLease::leaseUntil).orElseThrow()).isEqualTo(now.plusSeconds(30));
        leases.release("s1", "b");
        assertThat(leases.lease("s1").map(MonitorLease::owner)).as("only the holder releases").contains("a");
        leases.release("s1", "a");
        assertThat(leases.claim("s1", "b", now, now.plusSeconds(15))).isTrue();
        leases.leave("a");
        assertThat(leases.lease("s2").map(MonitorLease::owner)).isEmpty();
    }

    @Test
    void theNodesAliveAreThoseWhoseHeartbeatRuns() {
        Instant now = leases.now();
        assertThat(leases.heartbeat("a", now, now.plusSeconds(15))).containsExactly("a");
        assertThat(leases.heartbeat("b", now, now.plusSeconds(15))).containsExactly("a", "b");
        assertThat(leases.heartbeat("b", now.plusSeconds(20), now.plusSeconds(35))).as("a's ran out").containsExactly("b");
    }

    @Test
    void onlyTheHolderPassesTheRoundsLock() {
        Instant now = leases.now();
        leases.claim("web", "a", now, now.plusSeconds(15));
        TransactionTemplate tx = new TransactionTemplate(db.transactions);
        Boolean holder = tx.execute(s -> leases.lockIfHeld("web", "a"));
        Boolean other = tx.execute(s -> leases.lockIfHeld("web", "b"));
        Boolean unknown = tx.execute(s -> leases.lockIfHeld("unknown", "a"));
        assertThat(holder).isTrue();
        assertThat(other).isFalse();
        assertThat(unknown).isFalse();
    }

    @Test
    void aHealStartOfASetWaitsForTheOneUnderWay() throws Exception {
        TransactionTemplate tx = new TransactionTemplate(db.transactions);
        tx.executeWithoutResult(s -> leases.lockForHealStart("web")); // the row exists
        CountDownLatch locked = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<Void> first = CompletableFuture.runAsync(() -> tx.executeWithoutResult(s -> {
            leases.lockForHealStart("web");
            locked.countDown();
            await(release);
        }));
        assertThat(locked.await(10, TimeUnit.SECONDS)).isTrue();
        long t0 = System.nanoTime();
        CompletableFuture<Long> second = CompletableFuture.supplyAsync(() -> tx.execute(s -> {
            leases.lockForHealStart("web");
            return System.nanoTime();
        }));
        Thread.sleep(300);
        assertThat(second).as("the second start waits for the first's transaction").isNotDone();
        release.countDown();
        first.get(10, TimeUnit.SECONDS);
        assertThat(Duration.ofNanos(second.get(10, TimeUnit.SECONDS) - t0)).isGreaterThanOrEqualTo(Duration.ofMillis(300));
        assertThat(db.jdbc.queryForObject("SELECT heals_started FROM orch_health_monitor WHERE replica_set = 'web'", Integer.class))
                .isEqualTo(3);
    }

    @Test
    void theStageIsKeptWithItsTime() {
        Instant at = Instant.parse("2026-11-26T10:00:00Z");
        leases.saveStage("web", "2 of 2 healthy", at);
        assertThat(leases.lease("web")).contains(new MonitorLease("web", null, null, "2 of 2 healthy", at));
        assertThat(leases.lease("other")).isEmpty();
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
