package com.statefulcvm.web.api;

import com.statefulcvm.delegates.procedure.ProcedureVariables;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.statefulcvm.delegates.procedure.ScaleVariables;
import com.statefulcvm.delegates.support.ReplicaSets;
import com.statefulcvm.fleet.ReplicaSetSpec;
import org.springframework.stereotype.Component;

import java.util.Set;

/**
 * scale.bpmn's start, from the start form ({@code replicaSet}, {@code replicas}, optional {@code reason}) or our REST
 * API ({@code requestedReplicas}): {@link ScaleStartChecks}, the REST API's checks and messages.
 */
@Component
class ScaleStartCheck implements ProcedureStartCheck {

    static final Set<String> START_VARIABLES = Set.of(ScaleVariables.REPLICA_SET, ScaleVariables.REPLICAS, ProcedureVariables.REASON,
            ScaleVariables.REQUESTED_REPLICAS, ScaleVariables.SCALE_REASON, ScaleVariables.REQUESTED_BY);

    private final ReplicaSets replicaSets;
    private final ScaleStartChecks checks;
    private final ObjectMapper json;

    ScaleStartCheck(ReplicaSets replicaSets, ScaleStartChecks checks, ObjectMapper json) {
        this.replicaSets = replicaSets;
        this.checks = checks;
        this.json = json;
    }

    @Override
    public String processKey() {
        return ScaleVariables.PROCESS_KEY;
    }

    @Override
    public Set<String> startVariables() {
        return START_VARIABLES;
    }

    @Override
    public String check(ProcedureStart start) {
        ReplicaSetSpec spec = start.replicaSet(replicaSets);
        ObjectNode body = json.createObjectNode();
        Object replicas = start.firstOf(ScaleVariables.REPLICAS, ScaleVariables.REQUESTED_REPLICAS);
        if (replicas != null) {
            body.set(ScaleVariables.REPLICAS, json.valueToTree(replicas));
        }
        String reason = start.text(ProcedureVariables.REASON);
        if (reason != null) {
            body.put(ProcedureVariables.REASON, reason);
        }
        ScaleStartChecks.Request request = checks.request(spec.getName(), body);
        checks.requireNothingRunning(spec.getName());

        String requestedBy = start.requestedBy(ScaleVariables.REQUESTED_BY);
        start.remove(ScaleVariables.REPLICAS);
        start.remove(ProcedureVariables.REASON);
        start.set(ScaleVariables.REQUESTED_REPLICAS, request.replicas());
        start.set(ScaleVariables.REQUESTED_BY, requestedBy);
        if (start.text(ScaleVariables.SCALE_REASON) == null) {
            start.set(ScaleVariables.SCALE_REASON, start.requestedByWithReason(requestedBy, request.reason()));
        }
        return spec.getName();
    }
}
