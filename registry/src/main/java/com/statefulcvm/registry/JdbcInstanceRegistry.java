package com.statefulcvm.registry;

import com.statefulcvm.fleet.InstanceRecord;
import com.statefulcvm.fleet.InstanceRegistry;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.annotation.Transactional;

import java.time.Clock;
import java.util.List;
import java.util.Optional;

/** The registry in our own tables, on the engine's datasource (and in its transaction when called from a job). */
@Component
public class JdbcInstanceRegistry implements InstanceRegistry {

    private final InstanceRowRepository instances;
    private final ReplicaSetRowRepository sets;
    private final Clock clock;

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
