package com.statefulcvm.registry;

import org.springframework.dao.ConcurrencyFailureException;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

import java.util.function.Supplier;

/**
 * Runs an insert that may lose a race against a concurrent one (a unique constraint) inside a savepoint, so that the
 * caller's transaction, often the engine's job transaction, survives the duplicate key. PostgreSQL aborts the whole
 * transaction on any error otherwise; H2 would not, but the same code must work on both.
 */
final class InsertRace {

    static final int MAX_ATTEMPTS = 10;

    private final TransactionTemplate nested;

    InsertRace(PlatformTransactionManager transactions) {
        this.nested = new TransactionTemplate(transactions);
        this.nested.setPropagationBehavior(TransactionDefinition.PROPAGATION_NESTED);
    }

    /** True when the insert went through, false when a concurrent writer got there first (the caller reads again). */
    boolean tryInsert(Runnable insert) {
        try {
            nested.executeWithoutResult(status -> insert.run());
            return true;
        } catch (RuntimeException e) {
            if (lostTheRace(e)) {
                return false;
            }
            throw e;
        }
    }

    /** Spring Data JDBC wraps the driver's duplicate key in its own DbActionExecutionException. */
    private static boolean lostTheRace(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof DuplicateKeyException || t instanceof ConcurrencyFailureException) {
                return true;
            }
        }
        return false;
    }

    /** Repeats read-or-insert until one of them answers, a bounded number of times. */
    static <T> T retry(String what, Supplier<T> attempt) {
        for (int i = 1; i <= MAX_ATTEMPTS; i++) {
            T result = attempt.get();
            if (result != null) {
                return result;
            }
        }
        throw new ConcurrencyFailureException(what + ": still conflicting with concurrent writers after " + MAX_ATTEMPTS + " attempts");
    }
}
