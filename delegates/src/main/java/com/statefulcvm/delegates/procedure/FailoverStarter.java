package com.statefulcvm.delegates.procedure;

import org.camunda.bpm.engine.RuntimeService;
import org.springframework.stereotype.Component;

import java.util.Map;

import static com.statefulcvm.delegates.procedure.ProcedureVariables.requestedByWithReason;

/** Starts failover.bpmn (business key: the set's name); the caller has checked that it may. */
@Component
public class FailoverStarter {

    private final RuntimeService runtime;

    public FailoverStarter(RuntimeService runtime) {
        this.runtime = runtime;
    }

    /** @return the process instance id */
    public String start(String replicaSet, String requestedBy, String reason) {
        return runtime.startProcessInstanceByKey(FailoverVariables.PROCESS_KEY, replicaSet, Map.of(
                FailoverVariables.REPLICA_SET, replicaSet,
                FailoverVariables.FAILOVER_REASON, requestedByWithReason(requestedBy, reason),
                FailoverVariables.REQUESTED_BY, requestedBy)).getId();
    }
}
