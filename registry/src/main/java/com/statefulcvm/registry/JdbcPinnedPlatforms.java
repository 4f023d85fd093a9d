package com.statefulcvm.registry;

import com.statefulcvm.fleet.PlatformMeasurements;
import com.statefulcvm.fleet.admission.PinnedPlatform;
import com.statefulcvm.fleet.admission.PinnedPlatforms;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;

import java.time.OffsetDateTime;
import java.util.List;
import java.util.Locale;

import static com.statefulcvm.registry.JdbcRevisionHistory.truncate;
import static com.statefulcvm.registry.JdbcRevisionHistory.utc;

/** {@code orch_pinned_platform} (V27), in the caller's transaction; hex is stored lower-case, so one platform is one row. */
@Component
public class JdbcPinnedPlatforms implements PinnedPlatforms {

    private static final RowMapper<PinnedPlatform> ROW = (rs, i) -> new PinnedPlatform(rs.getString("replica_set"),
            new PlatformMeasurements(rs.getString("name"), rs.getString("mrtd"), rs.getString("rtmr0"), rs.getString("rtmr1"),
                    rs.getString("rtmr2")),
            rs.getString("pinned_by"), rs.getObject("pinned_at", OffsetDateTime.class).toInstant(), rs.getString("reason"));

    private final JdbcTemplate jdbc;
    private final InsertRace race;

    public JdbcPinnedPlatforms(JdbcTemplate jdbc, PlatformTransactionManager transactions) {
        this.jdbc = jdbc;
        this.race = new InsertRace(transactions);
    }

    @Override
    public List<PinnedPlatform> pinned(String replicaSet) {
        return jdbc.query("SELECT replica_set, mrtd, rtmr0, rtmr1, rtmr2, name, pinned_by, pinned_at, reason FROM orch_pinned_platform"
                + " WHERE replica_set = ? ORDER BY pinned_at, mrtd", ROW, replicaSet);
    }

    @Override
    public void pin(PinnedPlatform p) {
        PlatformMeasurements m = p.platform();
        // a platform pinned twice (two refusals showing it, a decision run again) stays one row, the first pin's
        race.tryInsert(() -> jdbc.update("INSERT INTO orch_pinned_platform (replica_set, mrtd, rtmr0, rtmr1, rtmr2, name, pinned_by,"
                        + " pinned_at, reason) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", p.replicaSet(), lower(m.getMrtd()), lower(m.getRtmr0()),
                lower(m.getRtmr1()), lower(m.getRtmr2()), truncate(m.getName(), 128), truncate(p.pinnedBy(), 128), utc(p.pinnedAt()),
                truncate(p.reason(), 1000)));
    }

    private static String lower(String hex) {
        return hex.toLowerCase(Locale.ROOT);
    }
}
