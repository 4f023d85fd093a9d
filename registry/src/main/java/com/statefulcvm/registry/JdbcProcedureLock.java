package com.statefulcvm.registry;

import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionSynchronizationManager;

import javax.sql.DataSource;
import java.lang.management.ManagementFactory;
import java.time.Clock;

import static com.statefulcvm.registry.JdbcRevisionHistory.truncate;
import static com.statefulcvm.registry.JdbcRevisionHistory.utc;

/**
 * The per-set procedure lock in the database ({@code orch_procedure_lock}, V21): the row lock of the set's row, taken
 * by an UPDATE in the caller's transaction (the engine's, which starts the procedure) and held until that transaction
 * commits or rolls back. Two starts of one set, on one node or on two, take turns; the second sees what the first
 * committed. A start that waits longer than {@value #WAIT_SECONDS} s is refused.
 */
@Component
public class JdbcProcedureLock {

    static final int WAIT_SECONDS = 30;

    private final JdbcTemplate jdbc;
    private final InsertRace race;
    private final Clock clock;
    private final String node = ManagementFactory.getRuntimeMXBean().getName();

    public JdbcProcedureLock(DataSource dataSource, PlatformTransactionManager transactions, Clock clock) {
        this.jdbc = new JdbcTemplate(dataSource);
        this.jdbc.setQueryTimeout(WAIT_SECONDS);
        this.race = new InsertRace(transactions);
        this.clock = clock;
    }

    /**
     * Takes the set's lock for the rest of the current transaction.
     *
     * @return false when the caller runs in no transaction (nothing to hold a lock for)
     * @throws LockNotTaken when another start held it too long, or the database refused
     */
    public boolean holdUntilTransactionEnds(String replicaSet, String by) {
        if (!TransactionSynchronizationManager.isActualTransactionActive()) {
            return false;
        }
        String who = truncate((by == null ? "" : by + " on ") + node, 255);
        try {
            InsertRace.retry("locking the procedures of " + replicaSet, () -> {
                if (jdbc.update("UPDATE orch_procedure_lock SET locked_at = ?, locked_by = ? WHERE replica_set = ?",
                        utc(clock.instant()), who, replicaSet) == 1) {
                    return Boolean.TRUE;
                }
                // the first start of this set ever: the row is created, and the insert holds its lock as well
                return race.tryInsert(() -> jdbc.update("INSERT INTO orch_procedure_lock (replica_set, locked_at, locked_by)"
                        + " VALUES (?, ?, ?)", replicaSet, utc(clock.instant()), who)) ? Boolean.TRUE : null;
            });
            return true;
        } catch (DataAccessException e) {
            throw new LockNotTaken("the procedures of replica set '" + replicaSet + "' are locked by another start: "
                    + e.getMostSpecificCause().getMessage(), e);
        }
    }

    /** The lock could not be taken: another start of the set held it past the wait. */
    public static class LockNotTaken extends RuntimeException {
        LockNotTaken(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
