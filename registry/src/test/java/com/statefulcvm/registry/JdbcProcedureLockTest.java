package com.statefulcvm.registry;

import org.junit.jupiter.api.Test;
import org.springframework.transaction.support.TransactionTemplate;

import java.time.Clock;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The per-set procedure lock (V21) on a real database, two transactions on two connections as two nodes would hold
 * them: the second start of a set waits until the first one's transaction ends; another set does not wait.
 */
class JdbcProcedureLockTest {

    /** The H2 the application runs on by default; {@link JdbcProcedureLockOnPostgresTest} runs the same on PostgreSQL. */
    RegistryDatabase database() {
        return RegistryDatabase.h2();
    }

    private final RegistryDatabase db = database();
    private final JdbcProcedureLock lock = new JdbcProcedureLock(db.dataSource, db.transactions, Clock.systemUTC());

    @Test
    void aSecondStartOfTheSameSetWaitsForTheFirstTransactionAndAnotherSetDoesNot() throws Exception {
        TransactionTemplate tx = new TransactionTemplate(db.transactions);
        // the set's row exists from an earlier start
        tx.executeWithoutResult(s -> lock.holdUntilTransactionEnds("db", "rollout"));

        CountDownLatch firstHolds = new CountDownLatch(1);
        CountDownLatch releaseFirst = new CountDownLatch(1);
        CompletableFuture<Long> first = CompletableFuture.supplyAsync(() -> tx.execute(s -> {
            lock.holdUntilTransactionEnds("db", "rollout");
            firstHolds.countDown();
            await(releaseFirst);
            return System.nanoTime();
        }));
        assertThat(firstHolds.await(10, TimeUnit.SECONDS)).isTrue();

        boolean otherSet = tx.execute(s -> lock.holdUntilTransactionEnds("other", "heal"));
        assertThat(otherSet).as("another set is not held up").isTrue();

        CompletableFuture<Long> second = CompletableFuture.supplyAsync(() -> tx.execute(s -> {
            lock.holdUntilTransactionEnds("db", "heal");
            return System.nanoTime();
        }));
        Thread.sleep(300); // the second start is in the database, waiting for the row
        assertThat(second).as("the second start of the set waits").isNotDone();
        releaseFirst.countDown();
        long firstCommitted = first.get(10, TimeUnit.SECONDS);
        long secondTook = second.get(10, TimeUnit.SECONDS);
        assertThat(secondTook).as("the second took the lock after the first ended").isGreaterThan(firstCommitted);
        assertThat(db.jdbc.queryForObject("SELECT locked_by FROM orch_procedure_lock WHERE replica_set = 'db'", String.class))
                .startsWith("heal on ");
    }

    @Test
    void withoutATransactionThereIsNothingToHold() {
        assertThat(lock.holdUntilTransactionEnds("db", "rollout")).isFalse();
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
