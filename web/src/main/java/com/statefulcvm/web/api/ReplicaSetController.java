package com.statefulcvm.web.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.statefulcvm.connectors.phala.EnvEncryption;
import com.statefulcvm.connectors.phala.PhalaApiException;
import com.statefulcvm.delegates.support.ReplicaSets;
import com.statefulcvm.delegates.support.RolloutPlanning;
import com.statefulcvm.fleet.InstanceRegistry;
import com.statefulcvm.fleet.rollout.PlannedStep;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.Revision;
import com.statefulcvm.fleet.RevisionHistory;
import com.statefulcvm.fleet.rollout.RolloutPlan;
import com.statefulcvm.fleet.UpdatePolicy;
import com.statefulcvm.web.config.FleetConfiguration.ValidatedFleet;
import com.statefulcvm.web.status.FleetReads;
import com.statefulcvm.web.status.ObservedConditions;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

@RestController
@RequestMapping(path = "/api/replica-sets", produces = "application/json")
class ReplicaSetController {

    private final ValidatedFleet fleet;
    private final ReplicaSets replicaSets;
    private final InstanceRegistry registry;
    private final RolloutStarts rollouts;
    private final ReplicaSetStatus status;
    private final ObservedConditions conditions;
    private final PolicyOverrides policies;
    private final RolloutPlanning planning;
    private final RevisionHistory revisions;
    private final ApiAccess access;
    private final EnvSealer sealer;
    private final FleetReads reads;

    ReplicaSetController(ValidatedFleet fleet, ReplicaSets replicaSets, InstanceRegistry registry,
                         RolloutStarts rollouts, ReplicaSetStatus status,
                         ObservedConditions conditions, PolicyOverrides policies, RolloutPlanning planning,
                         RevisionHistory revisions, ApiAccess access, EnvSealer sealer, FleetReads reads) {
        this.sealer = sealer;
        this.reads = reads;
        this.fleet = fleet;
        this.replicaSets = replicaSets;
        this.registry = registry;
        this.rollouts = rollouts;
        this.status = status;
        this.conditions = conditions;
        this.policies = policies;
        this.planning = planning;
        this.revisions = revisions;
        this.access = access;
    }

    /** From the registry and our own tables only: listing the fleet costs no API call. */
    @GetMapping
    List<ReplicaSetView> list() {
        return replicaSets.all().stream()
                .map(spec -> status.view(spec, registry.instances(spec.getName()), false, null))
                .toList();
    }

    /**
     * The set as Phala showed it at most {@code orchestrator.fleet-reads.max-age} ago ({@link FleetReads}: one read per
     * set and node in that time, however many viewers ask); if Phala cannot be reached, the last record and why.
     */
    @GetMapping("/{name}")
    ReplicaSetView get(@PathVariable String name) {
        ReplicaSetSpec spec = spec(name);
        FleetReads.Read read;
        try {
            read = reads.read(spec);
        } catch (PhalaApiException | IllegalStateException e) {
            return status.view(spec, registry.instances(name), true, e.getMessage());
        }
        if (read.fresh()) {
            conditions.track(spec, read.records());
        }
        return status.view(spec, read.records(), true, null);
    }

    @PostMapping(path = "/{name}/rollouts", consumes = "application/json")
    ResponseEntity<Map<String, Object>> startRollout(@PathVariable String name, @RequestBody JsonNode body) {
        access.requireStart("start rollouts");
        ReplicaSetSpec spec = spec(name);
        RolloutBody rollout = rolloutBody(name, body);
        String override = RolloutRequest.updatePolicyOf(body);
        policies.effective(spec, override);
        EnvEncryption.Sealed env = rollout.envs() == null ? null : sealer.seal(spec, rollout.envs());
        String processInstanceId = rollouts.start(spec, new RolloutStarts.Start(rollout.compose(), override, Set.of(), null, env));
        return created(processInstanceId, name);
    }

    /** A rollout's compose and envs: either may be left out, not both; without a compose the set keeps its own. */
    private record RolloutBody(String compose, Map<String, String> envs) {
    }

    private RolloutBody rolloutBody(String name, JsonNode body) {
        RolloutRequest.requireObject(body, "{\"dockerCompose\": \"<yaml>\"} or {\"envs\": {\"NAME\": \"value\"}}");
        RolloutRequest.onlyFields(body, RolloutRequest.DOCKER_COMPOSE, RolloutRequest.ENVS, RolloutRequest.UPDATE_POLICY);
        Map<String, String> envs = RolloutRequest.envsOf(body);
        if (envs == null) {
            return new RolloutBody(RolloutRequest.dockerComposeOf(body), null);
        }
        String compose = RolloutRequest.optionalDockerComposeOf(body);
        return new RolloutBody(compose != null ? compose : rollouts.composeOfSet(name, "an env rollout without dockerCompose keeps the set's compose"), envs);
    }

    /** What a rollout started now would do, in execution order; starts nothing, so any authenticated user may ask. */
    @PostMapping(path = "/{name}/rollouts/plan", consumes = "application/json")
    Map<String, Object> plan(@PathVariable String name, @RequestBody JsonNode body) {
        ReplicaSetSpec spec = spec(name);
        RolloutBody rollout = rolloutBody(name, body);
        List<String> envNames = rollout.envs() == null ? List.of() : List.copyOf(rollout.envs().keySet());
        UpdatePolicy policy = policies.effective(spec, RolloutRequest.updatePolicyOf(body));
        RolloutPlan plan;
        try {
            plan = planning.preview(spec, policy, rollout.compose(), Set.of(), envNames);
        } catch (IllegalStateException e) {
            // no app yet for the set
            throw new ApiProblem(HttpStatus.CONFLICT, e.getMessage());
        } catch (IllegalArgumentException e) {
            // the planner's own checks of the request, named by field
            throw new ApiProblem(HttpStatus.BAD_REQUEST, e.getMessage());
        }
        Map<String, Object> view = planView(plan);
        if (!envNames.isEmpty()) {
            view.put("envChange", Map.of("keys", envNames, "values", "encrypted to the app's key when the rollout starts; never shown"));
        }
        return view;
    }

    /** A rollout of exactly one instance; by default of the revision the set is moving to (or runs). */
    @PostMapping(path = "/{name}/instances/{ordinal}/rollout")
    ResponseEntity<Map<String, Object>> rolloutInstance(@PathVariable String name, @PathVariable String ordinal,
                                                        @RequestBody(required = false) JsonNode body) {
        access.requireStart("start rollouts");
        ReplicaSetSpec spec = spec(name);
        int target = Ordinals.parse(spec, ordinal);
        if (body != null && !body.isNull()) {
            RolloutRequest.requireObject(body, "{\"dockerCompose\": \"<yaml>\"} (both fields optional)");
            RolloutRequest.onlyFields(body, RolloutRequest.DOCKER_COMPOSE, RolloutRequest.UPDATE_POLICY);
        }
        String compose = RolloutRequest.optionalDockerComposeOf(body);
        if (compose == null) {
            compose = rollouts.composeOfSet(name, "a rollout of one instance without dockerCompose takes the set's");
        }
        String override = RolloutRequest.updatePolicyOf(body);
        policies.effective(spec, override);
        String processInstanceId = rollouts.start(spec, new RolloutStarts.Start(compose, override, Set.of(target), null));
        return created(processInstanceId, name);
    }

    static ResponseEntity<Map<String, Object>> created(String processInstanceId, String name) {
        return ResponseEntity.created(URI.create("/engine-rest/process-instance/" + processInstanceId))
                .body(Map.of("processInstanceId", processInstanceId, "replicaSet", name));
    }

    static Map<String, Object> planView(RolloutPlan plan) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("replicaSet", plan.replicaSet());
        out.put("actions", plan.steps().stream().map(ReplicaSetController::stepView).toList());
        out.put("blockers", plan.blockers());
        out.put("refusals", plan.refusals());
        out.put("waves", plan.waves());
        out.put("surgeSlots", plan.surgeSlots());
        out.put("leaderSteps", plan.leaderSteps());
        out.put("maxUnavailable", plan.maxUnavailable());
        out.put("maxSurge", plan.maxSurge());
        return out;
    }

    private static Map<String, Object> stepView(PlannedStep step) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("ordinal", step.ordinal());
        out.put("slot", step.slot());
        out.put("action", step.action().name());
        out.put("reason", step.reason());
        out.put("wave", step.wave());
        return out;
    }

    private ReplicaSetSpec spec(String name) {
        if (!replicaSets.exists(name)) {
            throw new ApiProblem(HttpStatus.NOT_FOUND, "unknown replica set '" + name + "'");
        }
        return replicaSets.spec(name);
    }
}
