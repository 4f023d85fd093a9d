package com.statefulcvm.registry;

import com.statefulcvm.fleet.admission.Refusal;
import org.junit.jupiter.api.Test;

import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

/** The slots refused beyond the disruption budget (migration V26) on a real database. */
class JdbcRefusalRegistryTest {

    /** The H2 the application runs on by default; {@link JdbcRefusalRegistryOnPostgresTest} runs the same on PostgreSQL. */
    RegistryDatabase database() {
        return RegistryDatabase.h2();
    }

    private final RegistryDatabase db = database();
    private final JdbcRefusalRegistry refusals = new JdbcRefusalRegistry(db.jdbc, db.transactions);
    private final Instant at = Instant.parse("2026-12-02T02:10:00Z");

    @Test
    void aRefusalIsRecordedReplacedListedAndLifted() {
        assertThat(refusals.refusal("db", 1)).isEmpty();
        refusals.save(new Refusal("db", 1, "i-1", "ADMISSION_REJECTED", "platform (MRTD aa…) is none of the set's platforms",
                "MRTD aa, RTMR0 bb, RTMR1 cc, RTMR2 dd", at, "admit-instance 7"));
        refusals.save(new Refusal("db", 2, "i-2", "QUOTE_INVALID", "failed quote.signature", null, at, "admit-instance 8"));
        Refusal again = new Refusal("db", 1, "i-1b", "QUOTE_INVALID", "failed pck.chain", null, at.plusSeconds(30), "rollout 9");
        refusals.save(again);
        assertThat(refusals.refusals("db")).extracting(Refusal::ordinal).containsExactly(1, 2);
        assertThat(refusals.refusal("db", 1)).contains(again);
        assertThat(refusals.refusals("other")).isEmpty();
        refusals.lift("db", 1);
        refusals.lift("db", 5);
        assertThat(refusals.refusals("db")).extracting(Refusal::ordinal).containsExactly(2);
    }
}
