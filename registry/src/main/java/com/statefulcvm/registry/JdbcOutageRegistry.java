package com.statefulcvm.registry;

import com.statefulcvm.fleet.budget.Outage;
import com.statefulcvm.fleet.budget.OutageRegistry;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;

import java.time.OffsetDateTime;
import java.util.Optional;

import static com.statefulcvm.registry.JdbcRevisionHistory.truncate;
import static com.statefulcvm.registry.JdbcRevisionHistory.utc;

/** {@code orch_set_outage}, one row per set in an outage, on the engine's datasource and in the caller's transaction. */
@Component
public class JdbcOutageRegistry implements OutageRegistry {

    private static final RowMapper<Outage> ROW = (rs, i) -> new Outage(rs.getString("replica_set"),
            rs.getObject("since", OffsetDateTime.class).toInstant(), rs.getString("down_slots"), rs.getString("budget"),
            rs.getString("recovery"));

    private final JdbcTemplate jdbc;
    private final InsertRace race;

    public JdbcOutageRegistry(JdbcTemplate jdbc, PlatformTransactionManager transactions) {
        this.jdbc = jdbc;
        this.race = new InsertRace(transactions);
    }

    @Override
    public Optional<Outage> outage(String replicaSet) {
        return jdbc.query("SELECT replica_set, since, down_slots, budget, recovery FROM orch_set_outage WHERE replica_set = ?",
                ROW, replicaSet).stream().findFirst();
    }

    @Override
    public void declare(Outage o) {
        InsertRace.retry("declaring the outage of " + o.replicaSet(), () -> {
            int updated = jdbc.update("UPDATE orch_set_outage SET down_slots = ?, budget = ?, recovery = ? WHERE replica_set = ?",
                    truncate(o.down(), 2000), truncate(o.budget(), 200), o.recovery(), o.replicaSet());
            if (updated > 0) {
                return Boolean.TRUE;
            }
            boolean inserted = race.tryInsert(() -> jdbc.update("INSERT INTO orch_set_outage (replica_set, since, down_slots, budget,"
                    + " recovery) VALUES (?, ?, ?, ?, ?)", o.replicaSet(), utc(o.since()), truncate(o.down(), 2000),
                    truncate(o.budget(), 200), o.recovery()));
            return inserted ? Boolean.TRUE : null;
        });
    }

    @Override
    public void end(String replicaSet) {
        jdbc.update("DELETE FROM orch_set_outage WHERE replica_set = ?", replicaSet);
    }
}
