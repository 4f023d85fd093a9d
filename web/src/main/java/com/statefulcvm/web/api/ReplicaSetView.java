package com.statefulcvm.web.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.statefulcvm.fleet.InstanceRecord;

import java.time.Instant;
import java.util.List;

/** What the API shows of a replica set; {@code instances} only on the detail read. */
@JsonInclude(JsonInclude.Include.NON_NULL)
record ReplicaSetView(String name, String appId, String workloadType, int replicas, int readyReplicas,
                      List<InstanceView> instances, String observationError) {

    record InstanceView(int ordinal, String name, String cvmId, String vmUuid, String instanceId, String status,
                        String composeHash, Boolean healthy, String condition, Instant observedAt,
                        Boolean attested, String attestation, Instant attestedAt) {

        static InstanceView of(InstanceRecord r) {
            return new InstanceView(r.ordinal(), r.slot(), r.cvmId(), r.vmUuid(), r.instanceId(), r.status(), r.composeHash(),
                    r.healthy(), r.condition(), r.observedAt(), r.attested(), r.attestation(), r.attestedAt());
        }
    }
}
