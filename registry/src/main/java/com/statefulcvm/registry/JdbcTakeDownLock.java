package com.statefulcvm.registry;

import com.statefulcvm.fleet.budget.TakeDownLock;
import org.springframework.dao.CannotAcquireLockException;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;

import javax.sql.DataSource;
import java.time.Clock;

/**
 * The set's take-down lock ({@code orch_takedown_lock}, V26), held in the job transaction of the step that judges the
 * disruption budget and acts on it. A step that cannot take it in {@value SetRowLock#WAIT_SECONDS} s fails, and its
 * job is retried by the engine.
 */
@Component
public class JdbcTakeDownLock implements TakeDownLock {

    private final SetRowLock lock;

    public JdbcTakeDownLock(DataSource dataSource, PlatformTransactionManager transactions, Clock clock) {
        this.lock = new SetRowLock("orch_takedown_lock", dataSource, transactions, clock, (set, e) -> new CannotAcquireLockException(
                "the take-down decisions of replica set '" + set + "' are locked by another step: " + e.getMostSpecificCause().getMessage(), e));
    }

    @Override
    public boolean holdUntilTransactionEnds(String replicaSet, String by) {
        return lock.holdUntilTransactionEnds(replicaSet, by);
    }
}
