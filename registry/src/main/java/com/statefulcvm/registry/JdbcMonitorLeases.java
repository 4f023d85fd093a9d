package com.statefulcvm.registry;

import com.statefulcvm.fleet.healing.MonitorLeases;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

import static com.statefulcvm.registry.JdbcRevisionHistory.truncate;
import static com.statefulcvm.registry.JdbcRevisionHistory.utc;

/**
 * {@code orch_health_monitor} (a lease per set) and {@code orch_monitor_node} (a heartbeat per node), on the engine's
 * datasource. Every statement that moves a lease is one conditional UPDATE, so two nodes racing for a set cannot both
 * win: the database decides. The locks ({@link #lockIfHeld}, {@link #lockForHealStart}) are row locks held until the
 * caller's transaction ends; H2 and PostgreSQL both take them with {@code SELECT ... FOR UPDATE}.
 */
@Component
public class JdbcMonitorLeases implements MonitorLeases {

    private final JdbcTemplate jdbc;
    private final InsertRace race;

    public JdbcMonitorLeases(JdbcTemplate jdbc, PlatformTransactionManager transactions) {
        this.jdbc = jdbc;
        this.race = new InsertRace(transactions);
    }

    @Override
    public Instant now() {
        return jdbc.queryForObject("SELECT CURRENT_TIMESTAMP", (rs, i) -> instant(rs, 1));
    }

    @Override
    public List<String> heartbeat(String node, Instant now, Instant until) {
        InsertRace.retry("the heartbeat of " + node, () -> {
            if (jdbc.update("UPDATE orch_monitor_node SET heartbeat_until = ? WHERE node_id = ?", utc(until), node) > 0) {
                return Boolean.TRUE;
            }
            return race.tryInsert(() -> jdbc.update("INSERT INTO orch_monitor_node (node_id, heartbeat_until) VALUES (?, ?)",
                    node, utc(until))) ? Boolean.TRUE : null;
        });
        // nodes gone for long are forgotten, so that the table does not grow with every restart
        jdbc.update("DELETE FROM orch_monitor_node WHERE heartbeat_until < ?", utc(now.minusSeconds(3600)));
        return jdbc.queryForList("SELECT node_id FROM orch_monitor_node WHERE heartbeat_until >= ? ORDER BY node_id",
                String.class, utc(now));
    }

    @Override
    public Set<String> renew(String node, Instant until) {
        jdbc.update("UPDATE orch_health_monitor SET lease_until = ? WHERE owner = ?", utc(until), node);
        return new LinkedHashSet<>(jdbc.queryForList("SELECT replica_set FROM orch_health_monitor WHERE owner = ? ORDER BY replica_set",
                String.class, node));
    }

    @Override
    public boolean claim(String replicaSet, String node, Instant now, Instant until) {
        ensureRow(replicaSet);
        return jdbc.update("UPDATE orch_health_monitor SET owner = ?, lease_until = ? WHERE replica_set = ?"
                        + " AND (owner IS NULL OR owner = ? OR lease_until IS NULL OR lease_until < ?)",
                node, utc(until), replicaSet, node, utc(now)) > 0;
    }

    @Override
    public void release(String replicaSet, String node) {
        jdbc.update("UPDATE orch_health_monitor SET owner = NULL, lease_until = NULL WHERE replica_set = ? AND owner = ?",
                replicaSet, node);
    }

    @Override
    public Set<String> heldByOthers(String node, Instant now) {
        return new LinkedHashSet<>(jdbc.queryForList("SELECT replica_set FROM orch_health_monitor WHERE owner IS NOT NULL"
                + " AND owner <> ? AND lease_until >= ?", String.class, node, utc(now)));
    }

    @Override
    public boolean lockIfHeld(String replicaSet, String node) {
        List<String> owner = jdbc.queryForList("SELECT owner FROM orch_health_monitor WHERE replica_set = ? FOR UPDATE",
                String.class, replicaSet);
        return !owner.isEmpty() && Objects.equals(owner.get(0), node);
    }

    @Override
    public void lockForHealStart(String replicaSet) {
        ensureRow(replicaSet);
        // an UPDATE rather than SELECT ... FOR UPDATE: the count is what an operator can read of it, and both databases
        // hold the row lock of an UPDATE until the transaction ends
        jdbc.update("UPDATE orch_health_monitor SET heals_started = heals_started + 1 WHERE replica_set = ?", replicaSet);
    }

    @Override
    public Optional<MonitorLease> lease(String replicaSet) {
        return jdbc.query("SELECT replica_set, owner, lease_until, stage, stage_at FROM orch_health_monitor WHERE replica_set = ?",
                (rs, i) -> new MonitorLease(rs.getString("replica_set"), rs.getString("owner"), instant(rs, "lease_until"),
                        rs.getString("stage"), instant(rs, "stage_at")), replicaSet).stream().findFirst();
    }

    @Override
    public void saveStage(String replicaSet, String stage, Instant at) {
        ensureRow(replicaSet);
        jdbc.update("UPDATE orch_health_monitor SET stage = ?, stage_at = ? WHERE replica_set = ?", truncate(stage, 1000),
                utc(at), replicaSet);
    }

    @Override
    public void leave(String node) {
        jdbc.update("UPDATE orch_health_monitor SET owner = NULL, lease_until = NULL WHERE owner = ?", node);
        jdbc.update("DELETE FROM orch_monitor_node WHERE node_id = ?", node);
    }

    private void ensureRow(String replicaSet) {
        InsertRace.retry("adding the monitor row of " + replicaSet, () -> {
            Integer rows = jdbc.queryForObject("SELECT COUNT(*) FROM orch_health_monitor WHERE replica_set = ?", Integer.class,
                    replicaSet);
            if (rows != null && rows > 0) {
                return Boolean.TRUE;
            }
            return race.tryInsert(() -> jdbc.update("INSERT INTO orch_health_monitor (replica_set, heals_started) VALUES (?, 0)",
                    replicaSet)) ? Boolean.TRUE : null;
        });
    }

    private static Instant instant(ResultSet rs, String column) throws SQLException {
        OffsetDateTime value = rs.getObject(column, OffsetDateTime.class);
        return value == null ? null : value.toInstant();
    }

    private static Instant instant(ResultSet rs, int column) throws SQLException {
        OffsetDateTime value = rs.getObject(column, OffsetDateTime.class);
        return value == null ? null : value.toInstant();
    }
}
