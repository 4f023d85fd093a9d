package com.statefulcvm.web.api.lightsout;

import com.statefulcvm.web.api.ReplicaSetController;
import com.statefulcvm.web.api.ApiProblem;
import com.statefulcvm.web.api.ApiAccess;
import com.fasterxml.jackson.databind.JsonNode;
import com.statefulcvm.delegates.procedure.LightsOutStarter;
import com.statefulcvm.delegates.procedure.LightsOutVariables;
import com.statefulcvm.delegates.support.ReplicaSets;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code POST /api/replica-sets/{name}/lights-out-recovery {"reason": "..."}}: starts lights-out-recovery.bpmn
 * (business key: the set's name) after the checks of {@link LightsOutStartCheck}: 404 for an unknown set, 400 for a
 * bad body or a workload type without a sequence procedure, 409 beside another procedure of the set.
 */
@RestController
@RequestMapping(path = "/api/replica-sets", produces = "application/json")
class LightsOutController {

    private static final Logger log = LoggerFactory.getLogger(LightsOutController.class);

    private final ReplicaSets replicaSets;
    private final LightsOutStartCheck checks;
    private final LightsOutStarter starter;
    private final ApiAccess access;
    private final Map<String, Object> starts = new ConcurrentHashMap<>();

    LightsOutController(ReplicaSets replicaSets, LightsOutStartCheck checks, LightsOutStarter starter, ApiAccess access) {
        this.replicaSets = replicaSets;
        this.checks = checks;
        this.starter = starter;
        this.access = access;
    }

    @PostMapping("/{name}/lights-out-recovery")
    ResponseEntity<Map<String, Object>> recover(@PathVariable String name, @RequestBody(required = false) JsonNode body) {
        if (!replicaSets.exists(name)) {
            throw new ApiProblem(HttpStatus.NOT_FOUND, "unknown replica set '" + name + "'");
        }
        access.requireStart(LightsOutVariables.PROCESS_KEY, "start lights-out recoveries");
        LightsOutStartCheck.Request request = checks.request(name, body);
        String reason = request.reason();
        // two requests at once on this node must not both pass the running check
        synchronized (starts.computeIfAbsent(name, n -> new Object())) {
            checks.requireNothingRunning(name);
            String user = access.callerId();
            String started = starter.start(name, user, reason, request.readmitFenced(), request.overrideNoOutage());
            log.info("Started lights-out recovery {} of {} (requested by {})", started, name, user);
            return ReplicaSetController.created(started, name);
        }
    }
}
