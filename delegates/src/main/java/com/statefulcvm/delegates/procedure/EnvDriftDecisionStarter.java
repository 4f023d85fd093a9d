package com.statefulcvm.delegates.procedure;

import org.camunda.bpm.engine.RuntimeService;
import org.springframework.stereotype.Component;

/** Starts decide-env-drift.bpmn for a set unless one is running: one decision per set, whatever number of its slots drifted. */
@Component
public class EnvDriftDecisionStarter {

    private final RuntimeService runtime;

    public EnvDriftDecisionStarter(RuntimeService runtime) {
        this.runtime = runtime;
    }

    /** @return the id of the set's running decision, started now or already running */
    public String ensureRunning(String replicaSet) {
        return OnePerSet.ensureRunning(runtime, EnvDriftVariables.PROCESS_KEY, replicaSet, "attestation: an env changed behind our back");
    }
}
