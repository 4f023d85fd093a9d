package com.statefulcvm.registry;

import com.statefulcvm.fleet.SlotChange;
import com.statefulcvm.fleet.SlotChanges;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.stereotype.Component;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;

/** orch_slot_change, which {@link JdbcInstanceRegistry#save} writes: read for the Instances panel's strips. */
@Component
public class JdbcSlotChanges implements SlotChanges {

    private static final RowMapper<SlotChange> ROW = (rs, i) -> new SlotChange(rs.getInt("ordinal"),
            rs.getObject("at", OffsetDateTime.class).toInstant(), rs.getString("status"),
            (Boolean) rs.getObject("healthy"), (Boolean) rs.getObject("attested"));

    private final JdbcTemplate jdbc;

    public JdbcSlotChanges(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public List<SlotChange> since(String replicaSet, Instant since) {
        OffsetDateTime from = JdbcRevisionHistory.utc(since);
        return jdbc.query("SELECT ordinal, at, status, healthy, attested FROM orch_slot_change c WHERE replica_set = ?"
                + " AND (at >= ? OR at = (SELECT MAX(at) FROM orch_slot_change b WHERE b.replica_set = c.replica_set"
                + " AND b.ordinal = c.ordinal AND b.at < ?)) ORDER BY ordinal, at", ROW, replicaSet, from, from);
    }
}
