package com.statefulcvm.delegates.procedure;

import org.camunda.bpm.engine.RuntimeService;
import org.springframework.stereotype.Component;

import java.util.Map;

/** Starts scale.bpmn (business key: the set's name); the caller has checked that it may. */
@Component
public class ScaleStarter {

    private final RuntimeService runtime;

    public ScaleStarter(RuntimeService runtime) {
        this.runtime = runtime;
    }

    /** @return the process instance id */
    public String start(String replicaSet, int replicas, String requestedBy, String reason) {
        return runtime.startProcessInstanceByKey(ScaleVariables.PROCESS_KEY, replicaSet, Map.of(
                ScaleVariables.REPLICA_SET, replicaSet,
                ScaleVariables.REQUESTED_REPLICAS, replicas,
                ScaleVariables.REQUESTED_BY, requestedBy,
                ScaleVariables.SCALE_REASON, ProcedureVariables.requestedByWithReason(requestedBy, reason))).getId();
    }
}
