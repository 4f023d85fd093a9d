package com.statefulcvm.registry;

import com.statefulcvm.fleet.admission.Fence;
import com.statefulcvm.fleet.FencePolicy;
import com.statefulcvm.fleet.admission.FenceRegistry;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

import java.time.OffsetDateTime;
import java.util.List;
import java.util.Optional;

import static com.statefulcvm.registry.JdbcRevisionHistory.truncate;
import static com.statefulcvm.registry.JdbcRevisionHistory.utc;

/**
 * {@code orch_slot_fence}, one row per fenced slot, on the engine's datasource. A fence is saved in a transaction of its
 * own, committed before the caller goes on: the fence step asks Phala to stop the CVM next, and a stop that fails (or a
 * job that is rolled back, a node that dies) must still leave the slot fenced. Reads and the lift are in the caller's.
 */
@Component
public class JdbcFenceRegistry implements FenceRegistry {

    private static final String SELECT = "SELECT replica_set, ordinal, instance_id, action, reason, fenced_at, fenced_by"
            + " FROM orch_slot_fence";

    private static final RowMapper<Fence> ROW = (rs, i) -> new Fence(rs.getString("replica_set"), rs.getInt("ordinal"),
            rs.getString("instance_id"), FencePolicy.valueOf(rs.getString("action")), rs.getString("reason"),
            rs.getObject("fenced_at", OffsetDateTime.class).toInstant(), rs.getString("fenced_by"));

    private final JdbcTemplate jdbc;
    private final SlotRowUpsert upsert;
    private final TransactionTemplate ownTransaction;

    public JdbcFenceRegistry(JdbcTemplate jdbc, PlatformTransactionManager transactions) {
        this.jdbc = jdbc;
        this.upsert = new SlotRowUpsert(jdbc, transactions);
        this.ownTransaction = new TransactionTemplate(transactions);
        this.ownTransaction.setPropagationBehavior(TransactionDefinition.PROPAGATION_REQUIRES_NEW);
    }

    @Override
    public Optional<Fence> fence(String replicaSet, int ordinal) {
        return jdbc.query(SELECT + " WHERE replica_set = ? AND ordinal = ?", ROW, replicaSet, ordinal).stream().findFirst();
    }

    @Override
    public List<Fence> fences(String replicaSet) {
        return jdbc.query(SELECT + " WHERE replica_set = ? ORDER BY ordinal", ROW, replicaSet);
    }

    @Override
    public void save(Fence f) {
        ownTransaction.executeWithoutResult(status -> saveInTransaction(f));
    }

    private void saveInTransaction(Fence f) {
        upsert.save("orch_slot_fence", f.replicaSet(), f.ordinal(), SlotRowUpsert.columns("instance_id", f.instanceId(),
                "action", f.action().name(), "reason", truncate(f.reason(), 1000), "fenced_at", utc(f.fencedAt()),
                "fenced_by", truncate(f.fencedBy(), 128)));
    }

    @Override
    public void lift(String replicaSet, int ordinal) {
        jdbc.update("DELETE FROM orch_slot_fence WHERE replica_set = ? AND ordinal = ?", replicaSet, ordinal);
    }
}
