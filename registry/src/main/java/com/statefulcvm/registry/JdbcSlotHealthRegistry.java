package com.statefulcvm.registry;

import com.statefulcvm.fleet.healing.SlotHealth;
import com.statefulcvm.fleet.healing.SlotHealthRegistry;
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
 * {@code orch_slot_health}, one row per (set, ordinal), on the engine's datasource and in the caller's transaction
 * (the monitor's round job, a heal's step). Each writer updates only its own columns, in one statement, so that the
 * monitor and a heal never overwrite each other's part of the row.
 */
@Component
public class JdbcSlotHealthRegistry implements SlotHealthRegistry {

    private static final String SELECT = "SELECT replica_set, ordinal, epoch, epoch_instance_id, instance_id, last_status, healthy,"
            + " consecutive_failures, consecutive_successes, last_probe_at, last_result, last_change_at, started_at, last_heal,"
            + " last_heal_at FROM orch_slot_health";

    private static final RowMapper<SlotHealth> ROW = (rs, i) -> new SlotHealth(rs.getString("replica_set"), rs.getInt("ordinal"),
            rs.getInt("epoch"), rs.getString("epoch_instance_id"), rs.getString("instance_id"), rs.getString("last_status"),
            (Boolean) rs.getObject("healthy"), rs.getInt("consecutive_failures"), rs.getInt("consecutive_successes"),
            instant(rs, "last_probe_at"), rs.getString("last_result"), instant(rs, "last_change_at"), instant(rs, "started_at"),
            rs.getString("last_heal"), instant(rs, "last_heal_at"));

    private final JdbcTemplate jdbc;
    private final InsertRace race;

    public JdbcSlotHealthRegistry(JdbcTemplate jdbc, PlatformTransactionManager transactions) {
        this.jdbc = jdbc;
        this.race = new InsertRace(transactions);
    }

    @Override
    public List<SlotHealth> all(String replicaSet) {
        return jdbc.query(SELECT + " WHERE replica_set = ? ORDER BY ordinal", ROW, replicaSet);
    }

    @Override
    public Optional<SlotHealth> get(String replicaSet, int ordinal) {
        return jdbc.query(SELECT + " WHERE replica_set = ? AND ordinal = ?", ROW, replicaSet, ordinal).stream().findFirst();
    }

    @Override
    public void saveObservation(SlotHealth h) {
        ensureRow(h.replicaSet(), h.ordinal());
        jdbc.update("UPDATE orch_slot_health SET instance_id = ?, last_status = ?, healthy = ?, consecutive_failures = ?,"
                        + " consecutive_successes = ?, last_probe_at = ?, last_result = ?, last_change_at = ?, started_at = ?"
                        + " WHERE replica_set = ? AND ordinal = ?",
                h.instanceId(), h.lastStatus(), h.healthy(), h.consecutiveFailures(), h.consecutiveSuccesses(), utc(h.lastProbeAt()),
                truncate(h.lastResult(), 1000), utc(h.lastChangeAt()), utc(h.startedAt()), h.replicaSet(), h.ordinal());
    }

    @Override
    public int advanceEpoch(String replicaSet, int ordinal, String instanceId) {
        if (instanceId == null || instanceId.isBlank()) {
            return get(replicaSet, ordinal).map(SlotHealth::epoch).orElse(0);
        }
        ensureRow(replicaSet, ordinal);
        // One statement: the first identity ever seen keeps epoch 0, any other one is the next epoch, the same one twice
        // changes nothing (a job that runs again, the monitor and a heal both seeing the new instance).
        jdbc.update("UPDATE orch_slot_health SET epoch = CASE WHEN epoch_instance_id IS NULL THEN epoch ELSE epoch + 1 END,"
                + " epoch_instance_id = ? WHERE replica_set = ? AND ordinal = ?"
                + " AND (epoch_instance_id IS NULL OR epoch_instance_id <> ?)", instanceId, replicaSet, ordinal, instanceId);
        return get(replicaSet, ordinal).map(SlotHealth::epoch).orElse(0);
    }

    @Override
    public void recordHeal(String replicaSet, int ordinal, String outcome, Instant at) {
        ensureRow(replicaSet, ordinal);
        jdbc.update("UPDATE orch_slot_health SET last_heal = ?, last_heal_at = ?, consecutive_failures = 0,"
                        + " consecutive_successes = 0, healthy = NULL, started_at = ?, last_change_at = ?"
                        + " WHERE replica_set = ? AND ordinal = ?",
                truncate(outcome, 1000), utc(at), utc(at), utc(at), replicaSet, ordinal);
    }

    private void ensureRow(String replicaSet, int ordinal) {
        InsertRace.retry("adding the health row of " + replicaSet + "-" + ordinal, () -> {
            Integer rows = jdbc.queryForObject("SELECT COUNT(*) FROM orch_slot_health WHERE replica_set = ? AND ordinal = ?",
                    Integer.class, replicaSet, ordinal);
            if (rows != null && rows > 0) {
                return Boolean.TRUE;
            }
            boolean inserted = race.tryInsert(() -> jdbc.update("INSERT INTO orch_slot_health (replica_set, ordinal, epoch,"
                    + " consecutive_failures, consecutive_successes) VALUES (?, ?, 0, 0, 0)", replicaSet, ordinal));
            return inserted ? Boolean.TRUE : null;
        });
    }

    private static Instant instant(ResultSet rs, String column) throws SQLException {
        OffsetDateTime value = rs.getObject(column, OffsetDateTime.class);
        return value == null ? null : value.toInstant();
    }
}
