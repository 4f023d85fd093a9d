package com.statefulcvm.registry;

import org.junit.jupiter.api.Test;
import org.springframework.transaction.support.TransactionTemplate;

import java.time.Clock;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The set's take-down lock (V26) on a real database: a second fence step of the set waits in the database until the
 * first one's transaction ends, and then sees what it committed.
 */
class JdbcTakeDownLockTest {

    /** The H2 the application runs on by default; {@link JdbcTakeDownLockOnPostgresTest} runs the same on PostgreSQL. */
    RegistryDatabase database() {
        return RegistryDatabase.h2();
    }

    private final RegistryDatabase db = database();
    private final JdbcTakeDownLock lock = new JdbcTakeDownLock(db.dataSource, db.transactions, Clock.systemUTC());

    @Test
    void aSecondTakeDownOfTheSetWaitsForTheFirstAndSeesWhatItCommitted() throws Exception {
        TransactionTemplate tx = new TransactionTemplate(db.transactions);
        String set = "db-" + Long.toHexString(System.nanoTime());
        String fenced = "probe_fenced_" + Long.toHexString(System.nanoTime());
        db.jdbc.execute("CREATE TABLE " + fenced + " (ordinal INT)");
        CountDownLatch firstHolds = new CountDownLatch(1);
        CountDownLatch releaseFirst = new CountDownLatch(1);
        CompletableFuture<Void> first = CompletableFuture.runAsync(() -> tx.executeWithoutResult(s -> {
            lock.holdUntilTransactionEnds(set, "fence db-0");
            firstHolds.countDown();
            awaitLatch(releaseFirst);
            db.jdbc.update("INSERT INTO " + fenced + " VALUES (0)");
        }));
        assertThat(firstHolds.await(10, TimeUnit.SECONDS)).isTrue();
        CompletableFuture<Integer> second = CompletableFuture.supplyAsync(() -> tx.execute(s -> {
            lock.holdUntilTransactionEnds(set, "fence db-1");
            return db.jdbc.queryForObject("SELECT COUNT(*) FROM " + fenced, Integer.class);
        }));
        await().atMost(10, TimeUnit.SECONDS).until(() -> lockWaiters() > 0 || second.isDone());
        assertThat(second).as("the second take-down waits for the first").isNotDone();
        releaseFirst.countDown();
        first.get(10, TimeUnit.SECONDS);
        assertThat(second.get(10, TimeUnit.SECONDS)).as("the second sees the first one's fence").isEqualTo(1);
        assertThat(db.jdbc.queryForObject("SELECT locked_by FROM orch_takedown_lock WHERE replica_set = ?", String.class, set))
                .startsWith("fence db-1 on ");
    }

    /** Sessions of the database waiting for a lock, as H2 and PostgreSQL each report them. */
    private int lockWaiters() {
        String url = db.jdbc.execute((java.sql.Connection c) -> c.getMetaData().getURL());
        return url.startsWith("jdbc:h2") ? db.jdbc.queryForObject(
                "SELECT COUNT(*) FROM INFORMATION_SCHEMA.SESSIONS WHERE BLOCKER_ID IS NOT NULL", Integer.class)
                : db.jdbc.queryForObject("SELECT COUNT(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'", Integer.class);
    }

    private static void awaitLatch(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
