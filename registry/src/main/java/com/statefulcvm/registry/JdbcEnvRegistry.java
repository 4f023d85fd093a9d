package com.statefulcvm.registry;

import com.statefulcvm.fleet.drift.EnvRegistry;
import com.statefulcvm.fleet.drift.EnvValue;
import com.statefulcvm.fleet.drift.SlotEnv;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static com.statefulcvm.registry.JdbcRevisionHistory.truncate;
import static com.statefulcvm.registry.JdbcRevisionHistory.utc;

/** {@code orch_slot_env} (V29), one row per slot looked at, in the caller's transaction. */
@Component
public class JdbcEnvRegistry implements EnvRegistry {

    private static final String[] PARTS = {"known", "sent", "drift"};
    private static final String SELECT = "SELECT * FROM orch_slot_env";
    private static final int MAX_ENV = 262144;

    private static final RowMapper<SlotEnv> ROW = (rs, i) -> new SlotEnv(rs.getString("replica_set"), rs.getInt("ordinal"),
            rs.getString("vm_uuid"), value(rs, "known"), value(rs, "sent"), value(rs, "drift"));

    private final JdbcTemplate jdbc;
    private final SlotRowUpsert upsert;

    public JdbcEnvRegistry(JdbcTemplate jdbc, PlatformTransactionManager transactions) {
        this.jdbc = jdbc;
        this.upsert = new SlotRowUpsert(jdbc, transactions);
    }

    @Override
    public Optional<SlotEnv> slot(String replicaSet, int ordinal) {
        return jdbc.query(SELECT + " WHERE replica_set = ? AND ordinal = ?", ROW, replicaSet, ordinal).stream().findFirst();
    }

    @Override
    public List<SlotEnv> slots(String replicaSet) {
        return jdbc.query(SELECT + " WHERE replica_set = ? ORDER BY ordinal", ROW, replicaSet);
    }

    @Override
    public void save(SlotEnv slot) {
        Map<String, Object> columns = SlotRowUpsert.columns("vm_uuid", slot.vmUuid());
        EnvValue[] values = {slot.known(), slot.sent(), slot.drift()};
        for (int i = 0; i < PARTS.length; i++) {
            EnvValue v = values[i];
            String env = v == null || v.encryptedEnv() == null || v.encryptedEnv().length() > MAX_ENV ? null : v.encryptedEnv();
            columns.put(PARTS[i] + "_digest", v == null ? null : v.digest());
            columns.put(PARTS[i] + "_env", env);
            columns.put(PARTS[i] + "_keys", v == null ? null : truncate(String.join(",", v.keys()), 4000));
            columns.put(PARTS[i] + "_source", v == null ? null : truncate(v.source(), 1000));
            columns.put(PARTS[i] + "_at", v == null ? null : utc(v.at()));
        }
        upsert.save("orch_slot_env", slot.replicaSet(), slot.ordinal(), columns);
    }

    private static EnvValue value(ResultSet rs, String part) throws SQLException {
        String digest = rs.getString(part + "_digest");
        if (digest == null) {
            return null;
        }
        OffsetDateTime at = rs.getObject(part + "_at", OffsetDateTime.class);
        return new EnvValue(digest, rs.getString(part + "_env"), SlotRowUpsert.list(rs.getString(part + "_keys")),
                rs.getString(part + "_source"), at == null ? null : at.toInstant());
    }
}
