package com.statefulcvm.delegates.procedure;

import org.camunda.bpm.engine.RuntimeService;
import org.springframework.stereotype.Component;

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
        return OnePerSet.ensureRunning(runtime, RefusalVariables.PROCESS_KEY, replicaSet, "attestation: a refusal the disruption budget kept from a fence");
    }
}
