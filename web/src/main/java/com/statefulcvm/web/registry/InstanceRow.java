package com.statefulcvm.web.registry;

import com.statefulcvm.fleet.InstanceRecord;
import org.springframework.data.annotation.Id;
import org.springframework.data.relational.core.mapping.Table;

import java.time.Instant;

@Table("orch_instance")
record InstanceRow(@Id Long id, String replicaSet, int ordinal, String slot, String cvmId, String vmUuid, String instanceId,
                   String composeHash, String status, Boolean healthy, String condition, Instant observedAt) {

    static InstanceRow of(Long id, InstanceRecord r) {
        return new InstanceRow(id, r.replicaSet(), r.ordinal(), r.slot(), r.cvmId(), r.vmUuid(), r.instanceId(), r.composeHash(),
                r.status(), r.healthy(), truncate(r.condition()), r.observedAt());
    }

    InstanceRecord toRecord() {
        return new InstanceRecord(replicaSet, ordinal, slot, cvmId, vmUuid, instanceId, composeHash, status, healthy, condition, observedAt);
    }

    private static String truncate(String condition) {
        return condition == null || condition.length() <= 1000 ? condition : condition.substring(0, 997) + "...";
    }
}
