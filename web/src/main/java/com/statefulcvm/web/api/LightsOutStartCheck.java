package com.statefulcvm.web.api;

import com.statefulcvm.delegates.procedure.ProcedureVariables;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.statefulcvm.delegates.procedure.LightsOutVariables;
import com.statefulcvm.delegates.procedure.RolloutVariables;
import com.statefulcvm.delegates.support.ReplicaSets;
import com.statefulcvm.fleet.ReplicaSetSpec;
import org.springframework.stereotype.Component;

import java.util.ArrayList;
import java.util.stream.IntStream;
import java.util.Set;

/**
 * lights-out-recovery.bpmn's start, from the start form ({@code replicaSet}, optional {@code reason} and
 * {@code readmitFenced}) or our REST API ({@code lightsOutReason} already worded): {@link LightsOutStartChecks}, the REST
 * API's checks and messages.
 */
@Component
class LightsOutStartCheck implements ProcedureStartCheck {

    /**
     * {@code readmitFenced}: the operator's recorded override (fenced slots are started too); {@code lightsOutTrigger}:
     * {@code outage} when the health monitor proposes the recovery (its seed decision is then always an operator's).
     */
    static final Set<String> START_VARIABLES = Set.of(LightsOutVariables.REPLICA_SET, ProcedureVariables.REASON, LightsOutVariables.LIGHTS_OUT_REASON,
            LightsOutVariables.REQUESTED_BY, LightsOutVariables.READMIT_FENCED, LightsOutVariables.LIGHTS_OUT_TRIGGER);

    private final ReplicaSets replicaSets;
    private final LightsOutStartChecks checks;
    private final ObjectMapper json;

    LightsOutStartCheck(ReplicaSets replicaSets, LightsOutStartChecks checks, ObjectMapper json) {
        this.replicaSets = replicaSets;
        this.checks = checks;
        this.json = json;
    }

    @Override
    public String processKey() {
        return LightsOutVariables.PROCESS_KEY;
    }

    @Override
    public Set<String> startVariables() {
        return START_VARIABLES;
    }

    @Override
    public String check(ProcedureStart start) {
        ReplicaSetSpec spec = start.replicaSet(replicaSets);
        ObjectNode body = json.createObjectNode();
        String reason = start.text(ProcedureVariables.REASON);
        if (reason != null) {
            body.put(ProcedureVariables.REASON, reason);
        }
        Object override = start.variable(LightsOutVariables.READMIT_FENCED);
        if (override != null) {
            body.set(LightsOutVariables.READMIT_FENCED, json.valueToTree(override));
        }
        LightsOutStartChecks.Request request = checks.request(spec.getName(), body);
        String checkedReason = request.reason();
        checks.requireNothingRunning(spec.getName());

        String requestedBy = start.requestedBy(LightsOutVariables.REQUESTED_BY);
        start.remove(ProcedureVariables.REASON);
        start.set(LightsOutVariables.REQUESTED_BY, requestedBy);
        start.set(LightsOutVariables.READMIT_FENCED, request.readmitFenced());
        if (start.text(LightsOutVariables.LIGHTS_OUT_REASON) == null) {
            start.set(LightsOutVariables.LIGHTS_OUT_REASON, start.requestedByWithReason(requestedBy, checkedReason));
        }
        // every slot is held (HealStarter's claims) from the start, not only from "Plan the recovery" (a job of its
        // own): a monitor round in between would otherwise heal, re-attest or fence one of them
        start.set(RolloutVariables.WAVE, new ArrayList<>(IntStream.range(0, spec.getReplicas()).mapToObj(spec::slotName).toList()));
        return spec.getName();
    }
}
