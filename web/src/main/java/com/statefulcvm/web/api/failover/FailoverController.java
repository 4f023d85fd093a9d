package com.statefulcvm.web.api.failover;

import com.statefulcvm.web.api.RunningProcesses;
import com.statefulcvm.web.api.RequestReason;
import com.statefulcvm.web.api.ReplicaSetController;
import com.statefulcvm.web.api.ApiProblem;
import com.statefulcvm.web.api.ApiAccess;
import com.fasterxml.jackson.databind.JsonNode;
import com.statefulcvm.delegates.procedure.FailoverStarter;
import com.statefulcvm.delegates.procedure.FailoverVariables;
import com.statefulcvm.delegates.failover.PatroniSet;
import com.statefulcvm.delegates.procedure.LightsOutVariables;
import com.statefulcvm.delegates.procedure.RolloutVariables;
import com.statefulcvm.delegates.procedure.ScaleVariables;
import com.statefulcvm.delegates.support.ReplicaSets;
import com.statefulcvm.fleet.ReplicaSetSpec;
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
 * {@code POST /api/replica-sets/{name}/failover}: starts failover.bpmn for a leader-based set (business key: the set's
 * name). The procedure itself decides whether the leader is lost; this refuses only what can never work: an unknown
 * set, a workload type it cannot fail over, a second failover of the set, and a set a rollout is working on (its
 * drain would move leadership under the failover's feet).
 */
@RestController
@RequestMapping(path = "/api/replica-sets", produces = "application/json")
class FailoverController {

    private static final Logger log = LoggerFactory.getLogger(FailoverController.class);

    private final ReplicaSets replicaSets;
    private final FailoverStarter starter;
    private final RunningProcesses running;
    private final ApiAccess access;
    private final Map<String, Object> starts = new ConcurrentHashMap<>();

    FailoverController(ReplicaSets replicaSets, FailoverStarter starter, RunningProcesses running, ApiAccess access) {
        this.replicaSets = replicaSets;
        this.starter = starter;
        this.running = running;
        this.access = access;
    }

    @PostMapping("/{name}/failover")
    ResponseEntity<Map<String, Object>> failover(@PathVariable String name, @RequestBody(required = false) JsonNode body) {
        if (!replicaSets.exists(name)) {
            throw new ApiProblem(HttpStatus.NOT_FOUND, "unknown replica set '" + name + "'");
        }
        access.requireStart(FailoverVariables.PROCESS_KEY, "start failovers");
        ReplicaSetSpec spec = replicaSets.spec(name);
        String reason = RequestReason.of(body);
        requireFailoverType(spec);
        // Two requests at once on this node must not both pass the check below. Across nodes they still could; the
        // second failover would then find the candidate leading and the old leader stopped, and change nothing.
        synchronized (starts.computeIfAbsent(name, n -> new Object())) {
            return start(name, reason);
        }
    }

    /** 400 for a set of a workload type failover.bpmn cannot fail over. */
    static void requireFailoverType(ReplicaSetSpec spec) {
        if (!PatroniSet.PATRONI.equals(spec.getWorkloadType())) {
            throw new ApiProblem(HttpStatus.BAD_REQUEST, "replica set '" + spec.getName() + "' is workload type '" + spec.getWorkloadType()
                    + "': failover.bpmn fails over workload type patroni only");
        }
    }

    private ResponseEntity<Map<String, Object>> start(String name, String reason) {
        requireNoneRunning(name);
        String user = access.callerId();
        String started = starter.start(name, user, reason);
        log.info("Started failover {} of {} (requested by {})", started, name, user);
        return ReplicaSetController.created(started, name);
    }

    /** 409 when a failover, a rollout or a scale of the set runs, for every start of a failover (REST, Tasklist, engine). */
    void requireNoneRunning(String name) {
        running.requireNoOutage(name, "a failover");
        running.requireNone(FailoverVariables.PROCESS_KEY, name, "a failover of replica set '" + name + "' is already running");
        running.requireNone(RolloutVariables.PROCESS_KEY, name, "rollout %s is working on replica set '" + name
                + "'; abort it first (its drain moves leadership too)");
        running.requireNone(ScaleVariables.PROCESS_KEY, name, "scale %s of replica set '" + name
                + "' is running; stop it first (its drain and leave steps move leadership too)");
        running.requireNone(LightsOutVariables.PROCESS_KEY, name, "lights-out recovery %s of replica set '" + name
                + "' is running; it chooses the leader itself");
    }
}
