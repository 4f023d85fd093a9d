package com.statefulcvm.registry;

import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;
import org.springframework.transaction.support.TransactionSynchronizationManager;

import javax.sql.DataSource;
import java.lang.management.ManagementFactory;
import java.time.Clock;
import java.util.function.BiFunction;

import static com.statefulcvm.registry.JdbcRevisionHistory.truncate;
import static com.statefulcvm.registry.JdbcRevisionHistory.utc;

/**
 * A per-set lock in the database: the row lock of the set's row in a table of (replica_set, locked_at, locked_by),
 * taken by an UPDATE in the caller's transaction and held until that transaction commits or rolls back. Two holders
 * of one set, on one node or on two, take turns; the second sees what the first committed. A wait longer than
 * {@value #WAIT_SECONDS} s is refused.
 */
final class SetRowLock {

    static final int WAIT_SECONDS = 30;

    private final String table;
    private final JdbcTemplate jdbc;
    private final InsertRace race;
    private final TransactionTemplate created;
    private final Clock clock;
    private final BiFunction<String, DataAccessException, RuntimeException> refused;
    private final String node = ManagementFactory.getRuntimeMXBean().getName();

    /** @param refused the caller's exception for a lock not taken, from the set and the database's answer */
    SetRowLock(String table, DataSource dataSource, PlatformTransactionManager transactions, Clock clock,
               BiFunction<String, DataAccessException, RuntimeException> refused) {
        this.table = table;
        this.jdbc = new JdbcTemplate(dataSource);
        this.jdbc.setQueryTimeout(WAIT_SECONDS);
        this.race = new InsertRace(transactions);
        this.created = new TransactionTemplate(transactions);
        this.created.setPropagationBehavior(TransactionDefinition.PROPAGATION_REQUIRES_NEW);
        this.clock = clock;
        this.refused = refused;
    }

    /** @return false when the caller runs in no transaction (nothing to hold a lock for) */
    boolean holdUntilTransactionEnds(String replicaSet, String by) {
        if (!TransactionSynchronizationManager.isActualTransactionActive()) {
            return false;
        }
        String who = truncate((by == null ? "" : by + " on ") + node, 255);
        try {
            if (lock(replicaSet, who)) {
                return true;
            }
            // the set's first holder ever: the row is created and committed on its own, so that holders arriving
            // together all wait on it rather than racing to insert it
            created.executeWithoutResult(status -> race.tryInsert(() -> jdbc.update("INSERT INTO " + table
                    + " (replica_set, locked_at, locked_by) VALUES (?, ?, ?)", replicaSet, utc(clock.instant()), who)));
            if (!lock(replicaSet, who)) {
                throw new IllegalStateException("the row of " + replicaSet + " in " + table + " vanished after it was created");
            }
            return true;
        } catch (DataAccessException e) {
            throw refused.apply(replicaSet, e);
        }
    }

    private boolean lock(String replicaSet, String who) {
        return jdbc.update("UPDATE " + table + " SET locked_at = ?, locked_by = ? WHERE replica_set = ?",
                utc(clock.instant()), who, replicaSet) == 1;
    }
}
