package com.statefulcvm.web.api.adoption;

import com.fasterxml.jackson.databind.JsonNode;
import com.statefulcvm.delegates.procedure.AdoptionStarter;
import com.statefulcvm.delegates.procedure.AdoptionVariables;
import com.statefulcvm.delegates.support.ReplicaSets;
import com.statefulcvm.web.api.ApiAccess;
import com.statefulcvm.web.api.ApiProblem;
import com.statefulcvm.web.api.ReplicaSetController;
import com.statefulcvm.web.api.RequestReason;
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

/**
 * {@code POST /api/replica-sets/{name}/adoptions {"reason": "..."}}: starts adopt-replica-set.bpmn after the checks of
 * {@link AdoptionStartCheck}: 404 for an unknown set, 400 for a bad body or a set that needs no adoption, 409 for one
 * adopted or being adopted.
 */
@RestController
@RequestMapping(path = "/api/replica-sets", produces = "application/json")
class AdoptionController {

    private static final Logger log = LoggerFactory.getLogger(AdoptionController.class);

    private final ReplicaSets replicaSets;
    private final AdoptionStartCheck checks;
    private final AdoptionStarter starter;
    private final ApiAccess access;

    AdoptionController(ReplicaSets replicaSets, AdoptionStartCheck checks, AdoptionStarter starter, ApiAccess access) {
        this.replicaSets = replicaSets;
        this.checks = checks;
        this.starter = starter;
        this.access = access;
    }

    @PostMapping("/{name}/adoptions")
    ResponseEntity<Map<String, Object>> adopt(@PathVariable String name, @RequestBody(required = false) JsonNode body) {
        if (!replicaSets.exists(name)) {
            throw new ApiProblem(HttpStatus.NOT_FOUND, "unknown replica set '" + name + "'");
        }
        access.requireStart(AdoptionVariables.PROCESS_KEY, "start adoptions");
        String reason = RequestReason.of(body);
        checks.requireAdoptable(replicaSets.spec(name));
        String user = access.callerId();
        // the start check runs again inside the start, under the set's procedure lock: two requests at once start one
        String started = starter.start(name, user, reason);
        log.info("Started adoption {} of {} (requested by {})", started, name, user);
        return ReplicaSetController.created(started, name);
    }
}
