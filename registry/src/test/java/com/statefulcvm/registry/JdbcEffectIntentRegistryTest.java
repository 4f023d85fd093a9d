package com.statefulcvm.registry;

import com.statefulcvm.fleet.effects.Effect;
import com.statefulcvm.fleet.effects.EffectIntent;
import com.statefulcvm.fleet.effects.EffectState;
import org.junit.jupiter.api.Test;
import org.springframework.transaction.support.TransactionTemplate;

import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The intents (migration V20) on a real database: each write is committed when it returns, whatever transaction the
 * calling job is in and however that ends; one key is recorded once; a renewal wins only from the state it expects.
 */
class JdbcEffectIntentRegistryTest {

    /** The H2 the application runs on by default; {@link JdbcEffectIntentRegistryOnPostgresTest} runs the same on PostgreSQL. */
    RegistryDatabase database() {
        return RegistryDatabase.h2();
    }

    private final RegistryDatabase db = database();
    private final JdbcEffectIntentRegistry intents = new JdbcEffectIntentRegistry(db.second());
    private final Instant at = Instant.parse("2026-11-25T17:20:11.123Z");

    private EffectIntent intent(String key, Effect effect) {
        return new EffectIntent(key, "db", "db-1", "cvm_1", effect, null, "rollout", "pid-7", EffectState.INTENDED, at,
                "node-1", null, null, 1);
    }

    @Test
    void anIntentWrittenInsideAJobThatRollsBackIsStillThere() {
        new TransactionTemplate(db.transactions).executeWithoutResult(status -> {
            db.jdbc.update("UPDATE orch_slot_fence SET reason = 'x' WHERE 1 = 0");
            assertThat(intents.record(intent("pid-7/db-1#1/RESTART", Effect.RESTART))).isTrue();
            intents.settle("pid-7/db-1#1/RESTART", EffectState.APPLIED, "accepted, restarting", at.plusSeconds(1));
            status.setRollbackOnly();
        });
        EffectIntent read = intents.find("pid-7/db-1#1/RESTART").orElseThrow();
        assertThat(read.state()).isEqualTo(EffectState.APPLIED);
        assertThat(read.outcome()).isEqualTo("accepted, restarting");
        assertThat(read.intendedAt()).isEqualTo(at);
        assertThat(read.settledAt()).isEqualTo(at.plusSeconds(1));
        assertThat(read.procedureInstanceId()).isEqualTo("pid-7");
    }

    @Test
    void aKeyIsRecordedOnceAndARenewalWinsOnlyFromTheStateItExpects() {
        assertThat(intents.record(intent("k", Effect.START))).isTrue();
        assertThat(intents.record(intent("k", Effect.START))).isFalse();
        intents.settle("k", EffectState.NOT_APPLIED, "409", at);

        EffectIntent again = intents.find("k").orElseThrow().again("cvm_2", at.plusSeconds(30), "node-2");
        assertThat(intents.renew(again, EffectState.NOT_APPLIED)).isTrue();
        assertThat(intents.renew(again, EffectState.NOT_APPLIED)).as("the second of two concurrent renewals").isFalse();
        EffectIntent read = intents.find("k").orElseThrow();
        assertThat(read.attempts()).isEqualTo(2);
        assertThat(read.state()).isEqualTo(EffectState.INTENDED);
        assertThat(read.cvm()).isEqualTo("cvm_2");
        assertThat(read.intendedBy()).isEqualTo("node-2");
        assertThat(read.outcome()).isNull();
    }

    @Test
    void aProceduresIntentsAndThoseSinceAMomentAreListedOldestFirst() {
        intents.record(intent("b", Effect.RESTART));
        EffectIntent earlier = new EffectIntent("a", "db", "db-0", "cvm_0", Effect.UPDATE_COMPOSE, "digest", "rollout", "pid-7",
                EffectState.INTENDED, at.minusSeconds(5), "node-1", null, null, 1);
        intents.record(earlier);
        intents.record(new EffectIntent("c", "db", "db-2", "db-2", Effect.CREATE, null, "bootstrap", null,
                EffectState.INTENDED, at.plusSeconds(5), "node-1", null, null, 1));
        assertThat(intents.ofProcedure("pid-7")).extracting(EffectIntent::key).containsExactly("a", "b");
        assertThat(intents.since(at)).extracting(EffectIntent::key).containsExactly("b", "c");
    }
}
