package com.statefulcvm.web.api.scale;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.statefulcvm.delegates.procedure.FailoverVariables;
import com.statefulcvm.delegates.procedure.LightsOutVariables;
import com.statefulcvm.delegates.procedure.ProcedureVariables;
import com.statefulcvm.delegates.procedure.RolloutVariables;
import com.statefulcvm.delegates.procedure.ScaleVariables;
import com.statefulcvm.delegates.scale.ScalePlanning;
import com.statefulcvm.delegates.support.ReplicaSets;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.web.api.ApiProblem;
import com.statefulcvm.web.api.ProcedureStart;
import com.statefulcvm.web.api.ProcedureStartCheck;
import com.statefulcvm.web.api.RequestBodies;
import com.statefulcvm.web.api.RequestReason;
import com.statefulcvm.web.api.RunningProcesses;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.RepositoryService;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;

import java.util.Optional;
import java.util.Set;

/**
 * Everything a scale start checks before anything happens, in one place: the body ({@code {"replicas": N}}, an
 * optional {@code reason}), the count against the set's bounds and the workload type's procedures (400, the field
 * named), and the procedures that must not run beside a scale of the same set (409: a scale, a rollout, a failover, a
 * heal of one of its instances). The checks of the running procedures are made without the caller's authorizations.
 * The same checks guard scale.bpmn's start through the engine, from the start form ({@code replicaSet},
 * {@code replicas}, optional {@code reason}) or our REST API ({@code requestedReplicas}), with the REST API's messages.
 */
@Component
class ScaleStartCheck extends ProcedureStartCheck {

    static final Set<String> START_VARIABLES = Set.of(ScaleVariables.REPLICA_SET, ScaleVariables.REPLICAS, ProcedureVariables.REASON,
            ScaleVariables.REQUESTED_REPLICAS, ScaleVariables.SCALE_REASON, ScaleVariables.REQUESTED_BY);

    private final ScalePlanning planning;
    private final RunningProcesses running;
    private final RepositoryService repository;
    private final ObjectMapper json;

    ScaleStartCheck(ReplicaSets replicaSets, ScalePlanning planning, RunningProcesses running, ProcessEngine engine, ObjectMapper json) {
        super(ScaleVariables.PROCESS_KEY, START_VARIABLES, replicaSets);
        this.planning = planning;
        this.running = running;
        this.repository = engine.getRepositoryService();
        this.json = json;
    }

    @Override
    protected String check(ProcedureStart start, ReplicaSetSpec spec) {
        ObjectNode body = start.requestBody(json, ScaleVariables.REPLICAS, start.firstOf(ScaleVariables.REPLICAS, ScaleVariables.REQUESTED_REPLICAS));
        Request request = request(spec.getName(), body);
        requireNothingRunning(spec.getName());

        start.remove(ScaleVariables.REPLICAS);
        start.set(ScaleVariables.REQUESTED_REPLICAS, request.replicas());
        start.recordRequest(ScaleVariables.SCALE_REASON, request.reason());
        return spec.getName();
    }

    record Request(int replicas, String reason) {
    }

    /** @throws ApiProblem 400 naming the field */
    Request request(String set, JsonNode body) {
        if (body == null || body.isNull()) {
            throw new ApiProblem(HttpStatus.BAD_REQUEST, "replicas: is required; send {\"replicas\": <count>}");
        }
        RequestBodies.requireObject(body, "{\"replicas\": <count>, \"reason\": \"<why>\"} (reason optional)");
        RequestBodies.onlyFields(body, ScaleVariables.REPLICAS, ProcedureVariables.REASON);
        JsonNode replicas = body.get(ScaleVariables.REPLICAS);
        Object value = replicas == null || replicas.isNull() ? null
                : replicas.isIntegralNumber() && replicas.canConvertToLong() ? (Object) replicas.asLong()
                : replicas.isNumber() ? replicas.numberValue() : replicas.isTextual() ? replicas.asText() : replicas.toString();
        Optional<String> refusal = planning.refusal(set, value, repository);
        if (refusal.isPresent()) {
            throw new ApiProblem(HttpStatus.BAD_REQUEST, refusal.get());
        }
        return new Request(((Number) value).intValue(), RequestReason.reasonOf(body));
    }

    /** @throws ApiProblem 409 when a procedure that changes the set's instances runs */
    void requireNothingRunning(String set) {
        running.requireNoOutage(set, "a scale");
        running.requireNone(ScaleVariables.PROCESS_KEY, set, "a scale of replica set '" + set + "' is already running");
        running.requireNone(RolloutVariables.PROCESS_KEY, set, "rollout %s is working on replica set '" + set + "'; scale it once the rollout has ended");
        running.requireNone(FailoverVariables.PROCESS_KEY, set, "failover %s of replica set '" + set + "' is running; scale it once it has ended");
        running.requireNone(LightsOutVariables.PROCESS_KEY, set, "lights-out recovery %s of replica set '" + set + "' is running; scale it once it has ended");
        running.requireNoHeal(set, "heal %s of an instance of replica set '" + set + "' is running; scale it once the heal has ended");
    }
}
