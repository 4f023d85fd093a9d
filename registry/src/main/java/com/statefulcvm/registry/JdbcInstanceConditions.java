package com.statefulcvm.registry;

import com.statefulcvm.fleet.ConditionType;
import com.statefulcvm.fleet.InstanceCondition;
import com.statefulcvm.fleet.InstanceConditions;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;

import java.time.Clock;
import java.time.OffsetDateTime;
import java.util.List;

import static com.statefulcvm.registry.JdbcRevisionHistory.truncate;
import static com.statefulcvm.registry.JdbcRevisionHistory.utc;

/** Conditions in {@code orch_instance_condition}, one row per (set, ordinal, type), on the engine's datasource. */
@Component
public class JdbcInstanceConditions implements InstanceConditions {

    private static final RowMapper<InstanceCondition> ROW = (rs, i) -> {
        OffsetDateTime since = rs.getObject("last_transition_time", OffsetDateTime.class);
        return new InstanceCondition(rs.getString("replica_set"), rs.getInt("ordinal"), ConditionType.valueOf(rs.getString("type")),
                rs.getBoolean("status"), rs.getString("reason"), since == null ? null : since.toInstant());
    };

    private static final String SELECT =
            "SELECT replica_set, ordinal, type, status, reason, last_transition_time FROM orch_instance_condition";

    private final JdbcTemplate jdbc;
    private final InsertRace race;
    private final Clock clock;

    public JdbcInstanceConditions(JdbcTemplate jdbc, PlatformTransactionManager transactions, Clock clock) {
        this.jdbc = jdbc;
        this.race = new InsertRace(transactions);
        this.clock = clock;
    }

    @Override
    public void set(String replicaSet, int ordinal, ConditionType type, boolean status, String reason) {
        OffsetDateTime now = utc(clock.instant());
        String why = truncate(reason, 1000);
        InsertRace.retry("setting condition " + type + " of " + replicaSet + "-" + ordinal, () -> {
            // One statement, so that the transition time and the status cannot disagree under concurrent writers:
            // every SET expression sees the row as it was before the update.
            int updated = jdbc.update("UPDATE orch_instance_condition SET reason = ?,"
                            + " last_transition_time = CASE WHEN status = ? THEN last_transition_time ELSE ? END, status = ?"
                            + " WHERE replica_set = ? AND ordinal = ? AND type = ?",
                    why, status, now, status, replicaSet, ordinal, type.name());
            if (updated > 0) {
                return Boolean.TRUE;
            }
            boolean inserted = race.tryInsert(() -> jdbc.update("INSERT INTO orch_instance_condition"
                            + " (replica_set, ordinal, type, status, reason, last_transition_time) VALUES (?, ?, ?, ?, ?, ?)",
                    replicaSet, ordinal, type.name(), status, why, now));
            return inserted ? Boolean.TRUE : null;
        });
    }

    @Override
    public List<InstanceCondition> conditions(String replicaSet) {
        return sorted(jdbc.query(SELECT + " WHERE replica_set = ? ORDER BY ordinal", ROW, replicaSet));
    }

    @Override
    public List<InstanceCondition> conditions(String replicaSet, int ordinal) {
        return sorted(jdbc.query(SELECT + " WHERE replica_set = ? AND ordinal = ?", ROW, replicaSet, ordinal));
    }

    @Override
    public void forget(String replicaSet, int ordinal) {
        jdbc.update("DELETE FROM orch_instance_condition WHERE replica_set = ? AND ordinal = ?", replicaSet, ordinal);
    }

    /** By ordinal, then in the order an update moves an instance through them (Programmed, Running, Healthy, Ready). */
    private static List<InstanceCondition> sorted(List<InstanceCondition> conditions) {
        return conditions.stream()
                .sorted(java.util.Comparator.comparingInt(InstanceCondition::ordinal).thenComparing(InstanceCondition::type))
                .toList();
    }
}
