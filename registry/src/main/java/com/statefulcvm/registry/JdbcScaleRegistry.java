package com.statefulcvm.registry;

import com.statefulcvm.fleet.scaling.RetainedSlot;
import com.statefulcvm.fleet.scaling.ScaleRegistry;
import com.statefulcvm.fleet.scaling.ScaledCount;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Optional;

import static com.statefulcvm.registry.JdbcRevisionHistory.truncate;
import static com.statefulcvm.registry.JdbcRevisionHistory.utc;

/**
 * {@code orch_scaled_replicas} and {@code orch_retained_slot} (migration V6), on the engine's datasource and in the
 * caller's transaction: a scale's step records the set's new count in the same transaction as its engine state.
 */
@Component
public class JdbcScaleRegistry implements ScaleRegistry {

    private static final RowMapper<ScaledCount> SCALED = (rs, i) -> new ScaledCount(rs.getString("replica_set"),
            rs.getInt("replicas"), rs.getInt("file_replicas"), rs.getString("scaled_by"), instant(rs, "scaled_at"));
    private static final RowMapper<RetainedSlot> RETAINED = (rs, i) -> new RetainedSlot(rs.getString("replica_set"),
            rs.getInt("ordinal"), rs.getString("slot"), rs.getString("cvm_id"), rs.getString("instance_id"),
            rs.getString("retained_by"), instant(rs, "retained_at"));

    private final JdbcTemplate jdbc;
    private final InsertRace race;

    public JdbcScaleRegistry(JdbcTemplate jdbc, PlatformTransactionManager transactions) {
        this.jdbc = jdbc;
        this.race = new InsertRace(transactions);
    }

    @Override
    public Optional<ScaledCount> scaled(String replicaSet) {
        return jdbc.query("SELECT * FROM orch_scaled_replicas WHERE replica_set = ?", SCALED, replicaSet).stream().findFirst();
    }

    @Override
    public void recordScaled(ScaledCount c) {
        InsertRace.retry("recording the scaled count of '" + c.replicaSet() + "'", () -> {
            if (jdbc.update("UPDATE orch_scaled_replicas SET replicas = ?, file_replicas = ?, scaled_by = ?, scaled_at = ?"
                    + " WHERE replica_set = ?", c.replicas(), c.fileReplicas(), truncate(c.scaledBy(), 255), utc(c.scaledAt()),
                    c.replicaSet()) > 0) {
                return Boolean.TRUE;
            }
            return race.tryInsert(() -> jdbc.update("INSERT INTO orch_scaled_replicas (replica_set, replicas, file_replicas,"
                    + " scaled_by, scaled_at) VALUES (?, ?, ?, ?, ?)", c.replicaSet(), c.replicas(), c.fileReplicas(),
                    truncate(c.scaledBy(), 255), utc(c.scaledAt()))) ? Boolean.TRUE : null;
        });
    }

    @Override
    public void forgetScaled(String replicaSet) {
        jdbc.update("DELETE FROM orch_scaled_replicas WHERE replica_set = ?", replicaSet);
    }

    @Override
    public List<RetainedSlot> retained(String replicaSet) {
        return jdbc.query("SELECT * FROM orch_retained_slot WHERE replica_set = ? ORDER BY ordinal", RETAINED, replicaSet);
    }

    @Override
    public void retain(RetainedSlot s) {
        InsertRace.retry("retaining " + s.slot(), () -> {
            if (jdbc.update("UPDATE orch_retained_slot SET slot = ?, cvm_id = ?, instance_id = ?, retained_by = ?, retained_at = ?"
                    + " WHERE replica_set = ? AND ordinal = ?", s.slot(), s.cvmId(), s.instanceId(), truncate(s.retainedBy(), 255),
                    utc(s.retainedAt()), s.replicaSet(), s.ordinal()) > 0) {
                return Boolean.TRUE;
            }
            return race.tryInsert(() -> jdbc.update("INSERT INTO orch_retained_slot (replica_set, ordinal, slot, cvm_id,"
                    + " instance_id, retained_by, retained_at) VALUES (?, ?, ?, ?, ?, ?, ?)", s.replicaSet(), s.ordinal(), s.slot(),
                    s.cvmId(), s.instanceId(), truncate(s.retainedBy(), 255), utc(s.retainedAt()))) ? Boolean.TRUE : null;
        });
    }

    @Override
    public void release(String replicaSet, int ordinal) {
        jdbc.update("DELETE FROM orch_retained_slot WHERE replica_set = ? AND ordinal = ?", replicaSet, ordinal);
    }

    private static Instant instant(ResultSet rs, String column) throws SQLException {
        OffsetDateTime value = rs.getObject(column, OffsetDateTime.class);
        return value == null ? null : value.toInstant();
    }
}
