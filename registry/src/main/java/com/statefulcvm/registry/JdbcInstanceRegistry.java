package com.statefulcvm.registry;

import com.statefulcvm.fleet.InstanceRecord;
import com.statefulcvm.fleet.InstanceRegistry;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.annotation.Transactional;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** The registry in our own tables, on the engine's datasource (and in its transaction when called from a job). */
@Component
public class JdbcInstanceRegistry implements InstanceRegistry {

    private final InstanceRowRepository instances;
    private final ReplicaSetRowRepository sets;
    private final Clock clock;

    /** How long a slot's changes are kept: the Instances panel draws the last hour. */
    static final java.time.Duration CHANGES_KEPT = java.time.Duration.ofDays(1);

    private final InsertRace race;
    private final JdbcTemplate jdbc;

    JdbcInstanceRegistry(InstanceRowRepository instances, ReplicaSetRowRepository sets, Clock clock,
                         PlatformTransactionManager transactions, NamedParameterJdbcTemplate jdbc) {
        this.jdbc = jdbc.getJdbcTemplate();
        this.instances = instances;
        this.sets = sets;
        this.clock = clock;
        this.race = new InsertRace(transactions);
    }

    @Override
    public List<InstanceRecord> instances(String replicaSet) {
        return instances.findByReplicaSetOrderByOrdinal(replicaSet).stream().map(InstanceRow::toRecord).toList();
    }

    @Override
    public Optional<InstanceRecord> instance(String replicaSet, int ordinal) {
        return instances.findByReplicaSetAndOrdinal(replicaSet, ordinal).map(InstanceRow::toRecord);
    }

    @Override
    @Transactional
    public void save(InstanceRecord record) {
        // two nodes observing a fresh set both update no row and both insert: the loser updates the winner's row
        InstanceRow row = InstanceRow.of(null, record);
        recordChange(row);
        InsertRace.retry("saving " + record.slot(), () -> {
            // one UPDATE by the slot's key: every rollout step and monitor round saves, and Spring Data's find-then-save
            // cost three times the database's own work here (JFR of the rollout benchmark)
            int updated = jdbc.update("UPDATE orch_instance SET slot = ?, cvm_id = ?, vm_uuid = ?, instance_id = ?, compose_hash = ?,"
                            + " status = ?, healthy = ?, condition = ?, observed_at = ?, attested = ?, attestation = ?, attested_at = ?"
                            + " WHERE replica_set = ? AND ordinal = ?",
                    row.slot(), row.cvmId(), row.vmUuid(), row.instanceId(), row.composeHash(), row.status(), row.healthy(),
                    row.condition(), JdbcRevisionHistory.utc(row.observedAt()), row.attested(), row.attestation(), JdbcRevisionHistory.utc(row.attestedAt()),
                    row.replicaSet(), row.ordinal());
            if (updated > 0) {
                return Boolean.TRUE;
            }
            return race.tryInsert(() -> instances.save(row)) ? Boolean.TRUE : null;
        });
    }

    /**
     * A row in orch_slot_change when the status, health or verdict differs from the saved one (or none is saved yet):
     * one statement, compared by the database, so a save that changes none of the three costs no read. Changes older
     * than {@link #CHANGES_KEPT} are dropped as a new one comes.
     */
    private void recordChange(InstanceRow row) {
        Instant now = clock.instant();
        int recorded = jdbc.update("INSERT INTO orch_slot_change (replica_set, ordinal, at, status, healthy, attested)"
                        + " SELECT CAST(? AS VARCHAR(64)), CAST(? AS INT), CAST(? AS TIMESTAMP WITH TIME ZONE), CAST(? AS VARCHAR(32)),"
                        + " CAST(? AS BOOLEAN), CAST(? AS BOOLEAN) WHERE NOT EXISTS (SELECT 1 FROM orch_instance"
                        + " WHERE replica_set = ? AND ordinal = ? AND status IS NOT DISTINCT FROM CAST(? AS VARCHAR(32))"
                        + " AND healthy IS NOT DISTINCT FROM CAST(? AS BOOLEAN) AND attested IS NOT DISTINCT FROM CAST(? AS BOOLEAN))",
                row.replicaSet(), row.ordinal(), JdbcRevisionHistory.utc(now), row.status(), row.healthy(), row.attested(),
                row.replicaSet(), row.ordinal(), row.status(), row.healthy(), row.attested());
        if (recorded > 0) {
            jdbc.update("DELETE FROM orch_slot_change WHERE replica_set = ? AND ordinal = ? AND at < ?",
                    row.replicaSet(), row.ordinal(), JdbcRevisionHistory.utc(now.minus(CHANGES_KEPT)));
        }
    }

    @Override
    @Transactional
    public void forget(String replicaSet, int ordinal) {
        instances.findByReplicaSetAndOrdinal(replicaSet, ordinal).ifPresent(instances::delete);
    }

    @Override
    public Optional<String> createdAppId(String replicaSet) {
        return sets.findById(replicaSet).map(ReplicaSetRow::appId);
    }

    @Override
    @Transactional
    public void saveCreatedAppId(String replicaSet, String appId) {
        InsertRace.retry("saving the app id of '" + replicaSet + "'", () -> {
            if (sets.updateAppId(replicaSet, appId) > 0) {
                return Boolean.TRUE;
            }
            return race.tryInsert(() -> sets.insert(replicaSet, appId, clock.instant())) ? Boolean.TRUE : null;
        });
    }

    @Override
    public Optional<String> envEncryptPubkey(String replicaSet) {
        return sets.findById(replicaSet).map(ReplicaSetRow::envEncryptPubkey);
    }

    /** Only on the row the app's creation wrote: the key belongs to that app. */
    @Override
    @Transactional
    public void saveEnvEncryptPubkey(String replicaSet, String pubkey) {
        sets.updateEnvEncryptPubkey(replicaSet, pubkey);
    }
}
