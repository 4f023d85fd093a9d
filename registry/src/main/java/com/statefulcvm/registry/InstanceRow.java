package com.statefulcvm.registry;

import com.statefulcvm.fleet.InstanceRecord;
import org.springframework.data.annotation.Id;
import org.springframework.data.relational.core.mapping.Table;

import java.time.Instant;

@Table("orch_instance")
record InstanceRow(@Id Long id, String replicaSet, int ordinal, String slot, String cvmId, String vmUuid, String instanceId,
                   String composeHash, String status, Boolean healthy, String condition, Instant observedAt,
                   Boolean attested, String attestation, Instant attestedAt) {

    static InstanceRow of(Long id, InstanceRecord r) {
        return new InstanceRow(id, r.replicaSet(), r.ordinal(), r.slot(), r.cvmId(), r.vmUuid(), r.instanceId(), r.composeHash(),
                r.status(), r.healthy(), truncate(r.condition()), r.observedAt(), r.attested(), truncate(r.attestation()), r.attestedAt());
    }

    InstanceRecord toRecord() {
        return new InstanceRecord(replicaSet, ordinal, slot, cvmId, vmUuid, instanceId, composeHash, status, healthy, condition,
                observedAt, attested, attestation, attestedAt);
    }

    private static String truncate(String text) {
        return text == null || text.length() <= 1000 ? text : text.substring(0, 997) + "...";
    }
}
