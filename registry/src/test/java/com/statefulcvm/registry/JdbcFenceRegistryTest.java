package com.statefulcvm.registry;

import com.statefulcvm.fleet.admission.Fence;
import com.statefulcvm.fleet.FencePolicy;
import org.junit.jupiter.api.Test;

import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

/** The fenced slots (migration V11) on a real database, as the fence step writes them and an admission lifts them. */
class JdbcFenceRegistryTest {

    /** The H2 the application runs on by default; {@link JdbcFenceRegistryOnPostgresTest} runs the same on PostgreSQL. */
    RegistryDatabase database() {
        return RegistryDatabase.h2();
    }

    private final RegistryDatabase db = database();
    private final JdbcFenceRegistry fences = new JdbcFenceRegistry(db.jdbc, db.transactions);
    private final Instant at = Instant.parse("2026-11-25T17:20:11Z");

    @Test
    void aFenceIsRecordedUpdatedListedAndLifted() {
        assertThat(fences.fence("db", 1)).isEmpty();
        fences.save(new Fence("db", 1, "i-1", FencePolicy.STOP, "QUOTE_INVALID: failed quote.signature", at, "admit-instance 7"));
        fences.save(new Fence("db", 0, "i-0", FencePolicy.DRAIN, "ADMISSION_REJECTED: compose_hash", at, "rollout 3"));
        fences.save(new Fence("db", 1, "i-1", FencePolicy.STOP, "QUOTE_INVALID: again", at.plusSeconds(9), "heal 8"));
        assertThat(fences.fences("db")).extracting(Fence::ordinal).containsExactly(0, 1);
        Fence one = fences.fence("db", 1).orElseThrow();
        assertThat(one).isEqualTo(new Fence("db", 1, "i-1", FencePolicy.STOP, "QUOTE_INVALID: again", at.plusSeconds(9), "heal 8"));
        assertThat(one.summary()).isEqualTo("fenced (stopped): attestation failed: QUOTE_INVALID: again");
        assertThat(fences.fences("other")).isEmpty();
        fences.lift("db", 1);
        fences.lift("db", 5);
        assertThat(fences.fences("db")).extracting(Fence::ordinal).containsExactly(0);
    }

    /**
     * Issue 20: the fence is committed in its own transaction, before the stop call that follows it: a job whose Phala
     * stop fails (or whose node dies) and is rolled back still leaves the slot fenced.
     */
    @Test
    void aFenceOutlivesTheRollbackOfTheTransactionThatSavedIt() {
        org.springframework.transaction.support.TransactionTemplate job =
                new org.springframework.transaction.support.TransactionTemplate(db.transactions);
        job.executeWithoutResult(status -> {
            fences.save(new Fence("db", 2, "i-2", FencePolicy.STOP, "QUOTE_INVALID: tampered", at, "rollout 9"));
            status.setRollbackOnly(); // the stop call failed: the job is rolled back
        });
        assertThat(fences.fence("db", 2)).as("fenced although the job rolled back").isPresent();
    }
}
