package com.statefulcvm.registry;

import com.statefulcvm.fleet.admission.Refusal;
import com.statefulcvm.fleet.admission.RefusalRegistry;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;

import java.time.OffsetDateTime;
import java.util.List;
import java.util.Optional;

import static com.statefulcvm.registry.JdbcRevisionHistory.truncate;
import static com.statefulcvm.registry.JdbcRevisionHistory.utc;

/**
 * {@code orch_slot_refusal}, one row per slot refused beyond the disruption budget, on the engine's datasource, in the
 * caller's transaction: the fence step that records a refusal calls nobody afterwards, so it commits with the step.
 */
@Component
public class JdbcRefusalRegistry implements RefusalRegistry {

    private static final String SELECT = "SELECT replica_set, ordinal, instance_id, code, reason, platform, refused_at, refused_by, running_compose"
            + " FROM orch_slot_refusal";

    private static final RowMapper<Refusal> ROW = (rs, i) -> new Refusal(rs.getString("replica_set"), rs.getInt("ordinal"),
            rs.getString("instance_id"), rs.getString("code"), rs.getString("reason"), rs.getString("platform"),
            rs.getObject("refused_at", OffsetDateTime.class).toInstant(), rs.getString("refused_by"), rs.getString("running_compose"));

    private final JdbcTemplate jdbc;
    private final SlotRowUpsert upsert;

    public JdbcRefusalRegistry(JdbcTemplate jdbc, PlatformTransactionManager transactions) {
        this.jdbc = jdbc;
        this.upsert = new SlotRowUpsert(jdbc, transactions);
    }

    @Override
    public Optional<Refusal> refusal(String replicaSet, int ordinal) {
        return jdbc.query(SELECT + " WHERE replica_set = ? AND ordinal = ?", ROW, replicaSet, ordinal).stream().findFirst();
    }

    @Override
    public List<Refusal> refusals(String replicaSet) {
        return jdbc.query(SELECT + " WHERE replica_set = ? ORDER BY ordinal", ROW, replicaSet);
    }

    @Override
    public void save(Refusal r) {
        upsert.save("orch_slot_refusal", r.replicaSet(), r.ordinal(), SlotRowUpsert.columns("instance_id", r.instanceId(),
                "code", truncate(r.code(), 64), "reason", truncate(r.reason(), 1000), "platform", truncate(r.platform(), 1000),
                "refused_at", utc(r.refusedAt()), "refused_by", truncate(r.refusedBy(), 128), "running_compose", composeOf(r)));
    }

    /** A compose too large to keep is not kept: truncated, it would be adopted as another compose. */
    private static String composeOf(Refusal r) {
        return r.runningCompose() == null || r.runningCompose().length() > 262144 ? null : r.runningCompose();
    }

    @Override
    public void lift(String replicaSet, int ordinal) {
        jdbc.update("DELETE FROM orch_slot_refusal WHERE replica_set = ? AND ordinal = ?", replicaSet, ordinal);
    }
}
