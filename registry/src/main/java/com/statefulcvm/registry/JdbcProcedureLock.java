package com.statefulcvm.registry;

import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;

import javax.sql.DataSource;
import java.time.Clock;

/**
 * The per-set procedure lock in the database ({@code orch_procedure_lock}, V21): the set's row lock, taken in the
 * transaction that starts the procedure (the engine's) and held until it ends ({@link SetRowLock}). Two starts of one
 * set, on one node or on two, take turns; the second sees what the first committed. A start that waits longer than
 * {@value SetRowLock#WAIT_SECONDS} s is refused.
 */
@Component
public class JdbcProcedureLock {

    private final SetRowLock lock;

    public JdbcProcedureLock(DataSource dataSource, PlatformTransactionManager transactions, Clock clock) {
        this.lock = new SetRowLock("orch_procedure_lock", dataSource, transactions, clock, (set, e) -> new LockNotTaken(
                "the procedures of replica set '" + set + "' are locked by another start: " + e.getMostSpecificCause().getMessage(), e));
    }

    /**
     * Takes the set's lock for the rest of the current transaction.
     *
     * @return false when the caller runs in no transaction (nothing to hold a lock for)
     * @throws LockNotTaken when another start held it too long, or the database refused
     */
    public boolean holdUntilTransactionEnds(String replicaSet, String by) {
        return lock.holdUntilTransactionEnds(replicaSet, by);
    }

    /** The lock could not be taken: another start of the set held it past the wait. */
    public static class LockNotTaken extends RuntimeException {
        LockNotTaken(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
