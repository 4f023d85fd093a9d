package com.statefulcvm.delegates.procedure;

import org.camunda.bpm.engine.RuntimeService;
import org.springframework.stereotype.Component;

import java.util.Map;

/**
 * Starts decide-attestation-refusals.bpmn for a set unless one is running: one decision per set, whatever number of
 * its slots stand refused. The caller holds the set's take-down lock, so two refusals at once start one.
 */
@Component
public class RefusalDecisionStarter {

    private final RuntimeService runtime;

    public RefusalDecisionStarter(RuntimeService runtime) {
        this.runtime = runtime;
    }

    /** @return the id of the set's running decision, started now or already running */
    public String ensureRunning(String replicaSet) {
        var running = runtime.createProcessInstanceQuery().processDefinitionKey(RefusalVariables.PROCESS_KEY)
                .processInstanceBusinessKey(replicaSet).active().list();
        if (!running.isEmpty()) {
            return running.get(0).getId();
        }
        return runtime.startProcessInstanceByKey(RefusalVariables.PROCESS_KEY, replicaSet, Map.of(
                RefusalVariables.REPLICA_SET, replicaSet,
                RefusalVariables.REQUESTED_BY, "attestation: a refusal the disruption budget kept from a fence")).getId();
    }
}
