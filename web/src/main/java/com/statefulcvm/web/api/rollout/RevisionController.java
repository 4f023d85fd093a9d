package com.statefulcvm.web.api.rollout;

import com.statefulcvm.web.api.ReplicaSetController;
import com.statefulcvm.web.api.ApiProblem;
import com.statefulcvm.web.api.ApiAccess;
import com.fasterxml.jackson.databind.JsonNode;
import com.statefulcvm.delegates.support.ReplicaSets;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.Revision;
import com.statefulcvm.fleet.RevisionHistory;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/** A set's revision history, and rollbacks to a recorded revision. */
@RestController
@RequestMapping(path = "/api/replica-sets/{name}", produces = "application/json")
class RevisionController {

    private final ReplicaSets replicaSets;
    private final RevisionHistory revisions;
    private final RolloutStarts rollouts;
    private final PolicyOverrides policies;
    private final ApiAccess access;

    RevisionController(ReplicaSets replicaSets, RevisionHistory revisions, RolloutStarts rollouts, PolicyOverrides policies,
                       ApiAccess access) {
        this.replicaSets = replicaSets;
        this.revisions = revisions;
        this.rollouts = rollouts;
        this.policies = policies;
        this.access = access;
    }

    /** Newest first, without the compose texts. */
    @GetMapping("/revisions")
    List<Map<String, Object>> revisions(@PathVariable String name) {
        spec(name);
        Pointers pointers = pointers(name);
        return revisions.revisions(name).stream().map(r -> view(r, pointers, false)).toList();
    }

    @GetMapping("/revisions/{number}")
    Map<String, Object> revision(@PathVariable String name, @PathVariable String number) {
        spec(name);
        int n;
        try {
            n = Integer.parseInt(number);
        } catch (NumberFormatException e) {
            throw new ApiProblem(HttpStatus.BAD_REQUEST, "number: must be a revision number (1, 2, ...), was '" + number + "'");
        }
        Revision revision = revisions.revision(name, n).orElseThrow(() -> new ApiProblem(HttpStatus.NOT_FOUND,
                "replica set '" + name + "' has no revision " + n + known(name)));
        return view(revision, pointers(name), true);
    }

    /** A normal rollout of a recorded revision's compose, marked as a rollback to it. */
    @PostMapping(path = "/rollbacks", consumes = "application/json")
    ResponseEntity<Map<String, Object>> rollback(@PathVariable String name, @RequestBody JsonNode body) {
        access.requireStart("start rollbacks");
        ReplicaSetSpec spec = spec(name);
        int number = RolloutRequest.revisionOf(body);
        Revision revision = revisions.revision(name, number).orElseThrow(() -> new ApiProblem(HttpStatus.BAD_REQUEST,
                "revision: replica set '" + name + "' has no revision " + number + known(name)));
        String override = RolloutRequest.updatePolicyOf(body);
        policies.effective(spec, override);
        String processInstanceId = rollouts.start(spec, new RolloutStarts.Start(revision.dockerCompose(), override, Set.of(), number));
        ResponseEntity<Map<String, Object>> created = ReplicaSetController.created(processInstanceId, name);
        Map<String, Object> out = new LinkedHashMap<>(created.getBody());
        out.put("revision", number);
        return ResponseEntity.status(created.getStatusCode()).headers(created.getHeaders()).body(out);
    }

    private record Pointers(Integer current, Integer update) {
    }

    private Pointers pointers(String name) {
        return new Pointers(revisions.currentRevision(name).map(Revision::number).orElse(null),
                revisions.updateRevision(name).map(Revision::number).orElse(null));
    }

    private String known(String name) {
        List<Integer> numbers = revisions.revisions(name).stream().map(Revision::number).sorted().toList();
        if (numbers.isEmpty()) {
            return " (it has none recorded)";
        }
        return " (recorded: " + numbers.get(0) + (numbers.size() > 1 ? ".." + numbers.get(numbers.size() - 1) : "") + ")";
    }

    private static Map<String, Object> view(Revision r, Pointers pointers, boolean withCompose) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("number", r.number());
        out.put("composeHash", r.composeHash());
        out.put("digest", r.digest());
        out.put("createdBy", r.createdBy());
        out.put("createdAt", r.createdAt());
        out.put("reason", r.reason());
        out.put("current", Objects.equals(pointers.current(), r.number()));
        out.put("update", Objects.equals(Optional.ofNullable(pointers.update()).orElse(pointers.current()), r.number()));
        if (withCompose) {
            out.put("dockerCompose", r.dockerCompose());
        }
        return out;
    }

    private ReplicaSetSpec spec(String name) {
        if (!replicaSets.exists(name)) {
            throw new ApiProblem(HttpStatus.NOT_FOUND, "unknown replica set '" + name + "'");
        }
        return replicaSets.spec(name);
    }
}
