package com.statefulcvm.web.api.scale;

import com.statefulcvm.web.api.ApiProblem;
import com.statefulcvm.web.api.ApiAccess;
import com.fasterxml.jackson.databind.JsonNode;
import com.statefulcvm.connectors.phala.PhalaApiException;
import com.statefulcvm.delegates.scale.ScalePlanning;
import com.statefulcvm.delegates.procedure.ScaleVariables;
import com.statefulcvm.delegates.support.ReplicaSets;
import com.statefulcvm.fleet.scaling.ScalePlan;
import com.statefulcvm.delegates.procedure.ScaleStarter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code POST /api/replica-sets/{name}/scale {"replicas": N}}: starts scale.bpmn (business key: the set's name) after
 * the checks of {@link ScaleStartCheck}. A request that changes nothing (the set has N replicas and no CVM above
 * them) starts nothing and says so with 200.
 */
@RestController
@RequestMapping(path = "/api/replica-sets", produces = "application/json")
class ScaleController {

    private static final Logger log = LoggerFactory.getLogger(ScaleController.class);

    private final ReplicaSets replicaSets;
    private final ScaleStartCheck checks;
    private final ScalePlanning planning;
    private final ScaleStarter starter;
    private final ApiAccess access;
    private final Map<String, Object> starts = new ConcurrentHashMap<>();

    ScaleController(ReplicaSets replicaSets, ScaleStartCheck checks, ScalePlanning planning, ScaleStarter starter,
                    ApiAccess access) {
        this.replicaSets = replicaSets;
        this.checks = checks;
        this.planning = planning;
        this.starter = starter;
        this.access = access;
    }

    @PostMapping("/{name}/scale")
    ResponseEntity<Map<String, Object>> scale(@PathVariable String name, @RequestBody(required = false) JsonNode body) {
        if (!replicaSets.exists(name)) {
            throw new ApiProblem(HttpStatus.NOT_FOUND, "unknown replica set '" + name + "'");
        }
        access.requireStart(ScaleVariables.PROCESS_KEY, "scale replica sets");
        ScaleStartCheck.Request request = checks.request(name, body);
        // two requests at once on this node must not both pass the running check
        synchronized (starts.computeIfAbsent(name, n -> new Object())) {
            checks.requireNothingRunning(name);
            ScalePlan plan;
            try {
                plan = planning.plan(name, request.replicas());
            } catch (PhalaApiException | IllegalStateException e) {
                throw new ApiProblem(HttpStatus.CONFLICT, "replica set '" + name + "' cannot be planned now: " + e.getMessage());
            }
            Map<String, Object> answer = new LinkedHashMap<>();
            answer.put("replicaSet", name);
            answer.put("fromReplicas", plan.current());
            answer.put("toReplicas", plan.requested());
            answer.put("plan", plan.summary(name));
            if (plan.direction() == ScalePlan.Direction.NONE) {
                answer.put("changed", false);
                return ResponseEntity.ok(answer);
            }
            String user = access.callerId();
            String started = starter.start(name, request.replicas(), user, request.reason());
            log.info("Started scale {} of {} from {} to {} replicas (requested by {})", started, name, plan.current(),
                    plan.requested(), user);
            answer.put("processInstanceId", started);
            answer.put("belowMinimum", plan.needsApproval());
            return ResponseEntity.created(URI.create("/engine-rest/process-instance/" + started)).body(answer);
        }
    }
}
