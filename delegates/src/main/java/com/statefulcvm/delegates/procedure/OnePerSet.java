package com.statefulcvm.delegates.procedure;

import org.camunda.bpm.engine.RuntimeService;

import java.util.Map;

/** A decision asked once per set (business key: the set's name): started unless one is running. */
final class OnePerSet {

    private OnePerSet() {
    }

    /** @return the id of the set's running process of {@code processKey}, started now or already running */
    static String ensureRunning(RuntimeService runtime, String processKey, String replicaSet, String requestedBy) {
        var running = runtime.createProcessInstanceQuery().processDefinitionKey(processKey)
                .processInstanceBusinessKey(replicaSet).active().list();
        if (!running.isEmpty()) {
            return running.get(0).getId();
        }
        return runtime.startProcessInstanceByKey(processKey, replicaSet, Map.of(
                ProcedureVariables.REPLICA_SET, replicaSet, ProcedureVariables.REQUESTED_BY, requestedBy)).getId();
    }
}
