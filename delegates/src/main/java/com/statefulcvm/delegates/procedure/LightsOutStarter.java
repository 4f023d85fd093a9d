package com.statefulcvm.delegates.procedure;

import org.camunda.bpm.engine.RuntimeService;
import org.springframework.stereotype.Component;

import java.util.Map;

import static com.statefulcvm.delegates.procedure.ProcedureVariables.requestedByWithReason;

/**
 * Starts lights-out-recovery.bpmn (business key: the set's name), asked by an operator or proposed by the health
 * monitor for an outage; the caller has checked that it may.
 */
@Component
public class LightsOutStarter {

    private final RuntimeService runtime;

    public LightsOutStarter(RuntimeService runtime) {
        this.runtime = runtime;
    }

    /** An operator's recovery; {@code readmitFenced}: the recorded override that starts fenced slots too. */
    public String start(String replicaSet, String requestedBy, String reason, boolean readmitFenced, boolean overrideNoOutage) {
        return runtime.startProcessInstanceByKey(LightsOutVariables.PROCESS_KEY, replicaSet, Map.of(
                LightsOutVariables.REPLICA_SET, replicaSet,
                LightsOutVariables.REQUESTED_BY, requestedBy,
                LightsOutVariables.LIGHTS_OUT_REASON, requestedByWithReason(requestedBy, reason),
                LightsOutVariables.READMIT_FENCED, readmitFenced,
                LightsOutVariables.OVERRIDE_NO_OUTAGE, overrideNoOutage)).getId();
    }

    /** The health monitor's proposal for an outage: its seed decision is always an operator's. */
    public String proposeForOutage(String replicaSet, String reason) {
        return runtime.startProcessInstanceByKey(LightsOutVariables.PROCESS_KEY, replicaSet, Map.of(
                LightsOutVariables.REPLICA_SET, replicaSet,
                LightsOutVariables.REQUESTED_BY, "health monitor",
                LightsOutVariables.LIGHTS_OUT_REASON, reason,
                LightsOutVariables.LIGHTS_OUT_TRIGGER, LightsOutVariables.TRIGGER_OUTAGE)).getId();
    }
}
