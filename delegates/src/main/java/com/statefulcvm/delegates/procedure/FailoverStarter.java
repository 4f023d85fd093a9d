package com.statefulcvm.delegates.procedure;

import org.camunda.bpm.engine.RuntimeService;
import org.springframework.stereotype.Component;

import java.util.HashMap;
import java.util.Map;

import static com.statefulcvm.delegates.procedure.ScaleStarter.requestedByWithReason;

/** Starts failover.bpmn (business key: the set's name); the caller has checked that it may. */
@Component
public class FailoverStarter {

    private final RuntimeService runtime;

    public FailoverStarter(RuntimeService runtime) {
        this.runtime = runtime;
    }

    /** @return the process instance id */
    public String start(String replicaSet, String requestedBy, String reason) {
        Map<String, Object> variables = new HashMap<>();
        variables.put(FailoverVariables.REPLICA_SET, replicaSet);
        variables.put(FailoverVariables.FAILOVER_REASON, requestedByWithReason(requestedBy, reason));
        variables.put(FailoverVariables.REQUESTED_BY, requestedBy);
        return runtime.startProcessInstanceByKey(FailoverVariables.PROCESS_KEY, replicaSet, variables).getId();
    }
}
