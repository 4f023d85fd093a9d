package com.statefulcvm.registry;

import com.statefulcvm.fleet.adoption.Adoption;
import com.statefulcvm.fleet.adoption.Adoptions;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;

import java.time.OffsetDateTime;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;

import static com.statefulcvm.registry.JdbcRevisionHistory.truncate;
import static com.statefulcvm.registry.JdbcRevisionHistory.utc;

/** {@code orch_set_adoption} (V28), in the caller's transaction. */
@Component
public class JdbcAdoptions implements Adoptions {

    private static final RowMapper<Adoption> ROW = (rs, i) -> new Adoption(rs.getString("replica_set"), rs.getString("app_id"),
            rs.getInt("revision"), rs.getString("adopted_by"), rs.getObject("adopted_at", OffsetDateTime.class).toInstant(),
            rs.getString("summary"), slotRevisions(rs.getString("slot_revisions")));

    private final JdbcTemplate jdbc;
    private final InsertRace race;

    public JdbcAdoptions(JdbcTemplate jdbc, PlatformTransactionManager transactions) {
        this.jdbc = jdbc;
        this.race = new InsertRace(transactions);
    }

    @Override
    public Optional<Adoption> adoption(String replicaSet) {
        return jdbc.query("SELECT replica_set, app_id, revision, adopted_by, adopted_at, summary, slot_revisions FROM orch_set_adoption"
                + " WHERE replica_set = ?", ROW, replicaSet).stream().findFirst();
    }

    @Override
    public void record(Adoption a) {
        race.tryInsert(() -> jdbc.update("INSERT INTO orch_set_adoption (replica_set, app_id, revision, adopted_by, adopted_at, summary,"
                        + " slot_revisions) VALUES (?, ?, ?, ?, ?, ?, ?)", a.replicaSet(), truncate(a.appId(), 128), a.revision(),
                truncate(a.adoptedBy(), 128), utc(a.adoptedAt()), truncate(a.summary(), 4000), text(a.slotRevisions())));
    }

    private static String text(Map<Integer, Integer> slotRevisions) {
        return new TreeMap<>(slotRevisions).entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(","));
    }

    private static Map<Integer, Integer> slotRevisions(String text) {
        Map<Integer, Integer> out = new TreeMap<>();
        if (text != null && !text.isBlank()) {
            for (String pair : text.split(",")) {
                String[] parts = pair.split("=");
                out.put(Integer.parseInt(parts[0].strip()), Integer.parseInt(parts[1].strip()));
            }
        }
        return out;
    }
}
