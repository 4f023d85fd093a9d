package com.statefulcvm.registry;

import com.statefulcvm.fleet.admission.AdmittedIdentities;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;

import java.time.Instant;
import java.util.Optional;

import static com.statefulcvm.registry.JdbcRevisionHistory.truncate;
import static com.statefulcvm.registry.JdbcRevisionHistory.utc;

/** {@code orch_slot_identity}, one row per slot an attestation of ours admitted, in the caller's transaction. */
@Component
public class JdbcAdmittedIdentities implements AdmittedIdentities {

    private final JdbcTemplate jdbc;
    private final InsertRace race;

    public JdbcAdmittedIdentities(JdbcTemplate jdbc, PlatformTransactionManager transactions) {
        this.jdbc = jdbc;
        this.race = new InsertRace(transactions);
    }

    @Override
    public Optional<String> admitted(String replicaSet, int ordinal) {
        return jdbc.queryForList("SELECT instance_id FROM orch_slot_identity WHERE replica_set = ? AND ordinal = ?", String.class,
                replicaSet, ordinal).stream().findFirst();
    }

    @Override
    public void admit(String replicaSet, int ordinal, String instanceId, String admittedBy, Instant at) {
        InsertRace.retry("recording the admitted identity of " + replicaSet + "-" + ordinal, () -> {
            int updated = jdbc.update("UPDATE orch_slot_identity SET instance_id = ?, admitted_by = ?, admitted_at = ?"
                    + " WHERE replica_set = ? AND ordinal = ?", instanceId, truncate(admittedBy, 128), utc(at), replicaSet, ordinal);
            if (updated > 0) {
                return Boolean.TRUE;
            }
            boolean inserted = race.tryInsert(() -> jdbc.update("INSERT INTO orch_slot_identity (replica_set, ordinal, instance_id,"
                    + " admitted_by, admitted_at) VALUES (?, ?, ?, ?, ?)", replicaSet, ordinal, instanceId, truncate(admittedBy, 128), utc(at)));
            return inserted ? Boolean.TRUE : null;
        });
    }
}
