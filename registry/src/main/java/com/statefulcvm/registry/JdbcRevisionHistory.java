package com.statefulcvm.registry;

import com.statefulcvm.fleet.ComposeText;
import com.statefulcvm.fleet.Revision;
import com.statefulcvm.fleet.RevisionHistory;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;

/**
 * Revisions in {@code orch_revision}, the set's current and update revision in {@code orch_replica_set_revision}; on
 * the engine's datasource, so a delegate's write commits or rolls back with its job. Recording is idempotent by the
 * compose's digest and safe under concurrent calls: the unique constraints decide, the loser reads again.
 */
@Component
public class JdbcRevisionHistory implements RevisionHistory {

    private static final String COLUMNS =
            "replica_set, number, digest, compose_hash, docker_compose, created_by, created_at, reason";

    private static final RowMapper<Revision> ROW = JdbcRevisionHistory::revision;

    private final JdbcTemplate jdbc;
    private final InsertRace race;
    private final Clock clock;

    public JdbcRevisionHistory(JdbcTemplate jdbc, PlatformTransactionManager transactions, Clock clock) {
        this.jdbc = jdbc;
        this.race = new InsertRace(transactions);
        this.clock = clock;
    }

    @Override
    public List<Revision> revisions(String replicaSet) {
        return jdbc.query("SELECT " + COLUMNS + " FROM orch_revision WHERE replica_set = ? ORDER BY number DESC", ROW, replicaSet);
    }

    @Override
    public Optional<Revision> revision(String replicaSet, int number) {
        return jdbc.query("SELECT " + COLUMNS + " FROM orch_revision WHERE replica_set = ? AND number = ?", ROW, replicaSet, number)
                .stream().findFirst();
    }

    @Override
    public Revision record(String replicaSet, String dockerCompose, String createdBy, String reason) {
        if (dockerCompose == null || dockerCompose.isBlank()) {
            throw new IllegalArgumentException("a revision needs a compose");
        }
        String digest = ComposeText.digest(dockerCompose);
        return InsertRace.retry("recording a revision of '" + replicaSet + "'", () -> {
            Optional<Revision> existing = byDigest(replicaSet, digest);
            if (existing.isPresent()) {
                return existing.get();
            }
            Integer max = jdbc.queryForObject("SELECT MAX(number) FROM orch_revision WHERE replica_set = ?", Integer.class, replicaSet);
            Revision revision = new Revision(replicaSet, max == null ? 1 : max + 1, digest, null, dockerCompose,
                    createdBy == null || createdBy.isBlank() ? "unknown" : truncate(createdBy, 255), clock.instant(),
                    truncate(reason, 1000));
            boolean inserted = race.tryInsert(() -> jdbc.update("INSERT INTO orch_revision (" + COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    revision.replicaSet(), revision.number(), revision.digest(), null, revision.dockerCompose(), revision.createdBy(),
                    utc(revision.createdAt()), revision.reason()));
            // lost the race: someone recorded this compose, or took the number; read again
            return inserted ? revision : null;
        });
    }

    @Override
    public void recordComposeHash(String replicaSet, int number, String composeHash) {
        jdbc.update("UPDATE orch_revision SET compose_hash = ? WHERE replica_set = ? AND number = ?", composeHash, replicaSet, number);
    }

    @Override
    public Optional<Revision> currentRevision(String replicaSet) {
        return pointedTo(replicaSet, "current_revision");
    }

    @Override
    public Optional<Revision> updateRevision(String replicaSet) {
        return pointedTo(replicaSet, "update_revision");
    }

    @Override
    public void setCurrentRevision(String replicaSet, int number) {
        point(replicaSet, "current_revision", number);
    }

    @Override
    public void setUpdateRevision(String replicaSet, int number) {
        point(replicaSet, "update_revision", number);
    }

    /** The current and update revision numbers in one read (either may be null). */
    public Pointers pointers(String replicaSet) {
        return jdbc.query("SELECT current_revision, update_revision FROM orch_replica_set_revision WHERE replica_set = ?",
                        (rs, i) -> new Pointers(nullableInt(rs, "current_revision"), nullableInt(rs, "update_revision")), replicaSet)
                .stream().findFirst().orElse(new Pointers(null, null));
    }

    public record Pointers(Integer current, Integer update) {
    }

    private Optional<Revision> byDigest(String replicaSet, String digest) {
        return jdbc.query("SELECT " + COLUMNS + " FROM orch_revision WHERE replica_set = ? AND digest = ?", ROW, replicaSet, digest)
                .stream().findFirst();
    }

    private Optional<Revision> pointedTo(String replicaSet, String column) {
        return jdbc.query("SELECT r.replica_set, r.number, r.digest, r.compose_hash, r.docker_compose, r.created_by, r.created_at, r.reason"
                        + " FROM orch_replica_set_revision s JOIN orch_revision r"
                        + " ON r.replica_set = s.replica_set AND r.number = s." + column
                        + " WHERE s.replica_set = ?", ROW, replicaSet)
                .stream().findFirst();
    }

    private void point(String replicaSet, String column, int number) {
        if (revision(replicaSet, number).isEmpty()) {
            throw new IllegalArgumentException("replica set '" + replicaSet + "' has no revision " + number);
        }
        InsertRace.retry("setting the " + column.replace('_', ' ') + " of '" + replicaSet + "'", () -> {
            if (jdbc.update("UPDATE orch_replica_set_revision SET " + column + " = ? WHERE replica_set = ?", number, replicaSet) > 0) {
                return Boolean.TRUE;
            }
            boolean inserted = race.tryInsert(() ->
                    jdbc.update("INSERT INTO orch_replica_set_revision (replica_set, " + column + ") VALUES (?, ?)", replicaSet, number));
            return inserted ? Boolean.TRUE : null;
        });
    }

    private static Revision revision(ResultSet rs, int row) throws SQLException {
        OffsetDateTime created = rs.getObject("created_at", OffsetDateTime.class);
        return new Revision(rs.getString("replica_set"), rs.getInt("number"), rs.getString("digest"), rs.getString("compose_hash"),
                rs.getString("docker_compose"), rs.getString("created_by"), created == null ? null : created.toInstant(),
                rs.getString("reason"));
    }

    private static Integer nullableInt(ResultSet rs, String column) throws SQLException {
        int value = rs.getInt(column);
        return rs.wasNull() ? null : value;
    }

    static OffsetDateTime utc(Instant instant) {
        return instant == null ? null : instant.atOffset(ZoneOffset.UTC);
    }

    static String truncate(String text, int max) {
        return text == null || text.length() <= max ? text : text.substring(0, max - 3) + "...";
    }
}
