package com.statefulcvm.registry;

import com.statefulcvm.fleet.effects.Effect;
import com.statefulcvm.fleet.effects.EffectIntent;
import com.statefulcvm.fleet.effects.EffectIntentRegistry;
import com.statefulcvm.fleet.effects.EffectState;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;

import javax.sql.DataSource;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Optional;

import static com.statefulcvm.registry.JdbcRevisionHistory.truncate;
import static com.statefulcvm.registry.JdbcRevisionHistory.utc;

/**
 * {@code orch_effect_intent} on a connection pool of its own, in auto-commit: every write is its own transaction and is
 * durable when the method returns, whatever engine transaction the calling job is in (and however that one ends). A
 * pool of its own also means a job thread that holds the engine's connection never waits for a second one from the
 * same pool.
 */
public class JdbcEffectIntentRegistry implements EffectIntentRegistry {

    private static final String COLUMNS = "intent_key, replica_set, slot, cvm, effect, target, procedure_key, procedure_id, state,"
            + " attempts, first_intended_at, intended_at, intended_by, settled_at, outcome";
    private static final String SELECT = "SELECT " + COLUMNS + " FROM orch_effect_intent";

    private static final RowMapper<EffectIntent> ROW = (rs, i) -> new EffectIntent(rs.getString("intent_key"),
            rs.getString("replica_set"), rs.getString("slot"), rs.getString("cvm"), Effect.valueOf(rs.getString("effect")),
            rs.getString("target"), rs.getString("procedure_key"), rs.getString("procedure_id"),
            EffectState.valueOf(rs.getString("state")), instant(rs.getObject("intended_at", OffsetDateTime.class)),
            rs.getString("intended_by"), instant(rs.getObject("settled_at", OffsetDateTime.class)), rs.getString("outcome"),
            rs.getInt("attempts"));

    private final JdbcTemplate jdbc;

    public JdbcEffectIntentRegistry(DataSource autoCommitting) {
        this.jdbc = new JdbcTemplate(autoCommitting);
    }

    @Override
    public Optional<EffectIntent> find(String key) {
        return jdbc.query(SELECT + " WHERE intent_key = ?", ROW, key).stream().findFirst();
    }

    @Override
    public boolean record(EffectIntent i) {
        try {
            jdbc.update("INSERT INTO orch_effect_intent (" + COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    i.key(), i.replicaSet(), i.slot(), i.cvm(), i.effect().name(), i.target(), i.procedure(),
                    i.procedureInstanceId(), i.state().name(), i.attempts(), utc(i.intendedAt()), utc(i.intendedAt()),
                    truncate(i.intendedBy(), 128), utc(i.settledAt()), truncate(i.outcome(), 1000));
            return true;
        } catch (DuplicateKeyException exists) {
            return false;
        }
    }

    @Override
    public void settle(String key, EffectState state, String outcome, Instant at) {
        jdbc.update("UPDATE orch_effect_intent SET state = ?, outcome = ?, settled_at = ? WHERE intent_key = ?", state.name(),
                truncate(outcome, 1000), utc(at), key);
    }

    @Override
    public boolean renew(EffectIntent r, EffectState expected) {
        return jdbc.update("UPDATE orch_effect_intent SET cvm = ?, state = ?, attempts = ?, intended_at = ?, intended_by = ?,"
                        + " settled_at = NULL, outcome = NULL WHERE intent_key = ? AND state = ?", r.cvm(), r.state().name(),
                r.attempts(), utc(r.intendedAt()), truncate(r.intendedBy(), 128), r.key(), expected.name()) == 1;
    }

    @Override
    public List<EffectIntent> ofProcedure(String procedureInstanceId) {
        return jdbc.query(SELECT + " WHERE procedure_id = ? ORDER BY first_intended_at, intent_key", ROW, procedureInstanceId);
    }

    @Override
    public List<EffectIntent> since(Instant since) {
        return jdbc.query(SELECT + " WHERE first_intended_at >= ? ORDER BY first_intended_at, intent_key", ROW, utc(since));
    }

    private static Instant instant(OffsetDateTime at) {
        return at == null ? null : at.toInstant();
    }
}
