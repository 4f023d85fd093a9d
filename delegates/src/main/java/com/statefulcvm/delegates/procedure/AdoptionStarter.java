package com.statefulcvm.delegates.procedure;

import org.camunda.bpm.engine.RuntimeService;
import org.springframework.stereotype.Component;

import java.util.Map;

import static com.statefulcvm.delegates.procedure.ProcedureVariables.requestedByWithReason;

/**
 * Starts adopt-replica-set.bpmn (business key: the set's name), asked by an operator or proposed at start-up for a set
 * whose app was made elsewhere and is not adopted yet; the caller has checked that it may.
 */
@Component
public class AdoptionStarter {

    /** Who a start-up proposal is requested by: the application, so any approver may decide it. */
    public static final String PROPOSED_AT_START_UP = "orchestrator start-up";

    private final RuntimeService runtime;

    public AdoptionStarter(RuntimeService runtime) {
        this.runtime = runtime;
    }

    public String start(String replicaSet, String requestedBy, String reason) {
        return runtime.startProcessInstanceByKey(AdoptionVariables.PROCESS_KEY, replicaSet, Map.of(
                AdoptionVariables.REPLICA_SET, replicaSet,
                AdoptionVariables.REQUESTED_BY, requestedBy,
                AdoptionVariables.ADOPTION_REASON, requestedByWithReason(requestedBy, reason))).getId();
    }

    /** True when an adoption of the set runs (its survey, its approval). */
    public boolean running(String replicaSet) {
        return runtime.createProcessInstanceQuery().processDefinitionKey(AdoptionVariables.PROCESS_KEY)
                .processInstanceBusinessKey(replicaSet).count() > 0;
    }
}
