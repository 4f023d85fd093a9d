package com.statefulcvm.web.api.rollout;

import com.statefulcvm.web.api.RequestBodies;
import com.statefulcvm.web.api.RequestReason;
import com.statefulcvm.web.api.ProcedureReport;
import com.statefulcvm.web.api.ProcedureKind;
import com.statefulcvm.web.api.EngineRollouts;
import com.statefulcvm.web.api.ApiProblem;
import com.statefulcvm.web.api.ApiAccess;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.statefulcvm.delegates.procedure.RolloutVariables;
import com.statefulcvm.delegates.support.AsApplication;
import com.statefulcvm.delegates.support.JsonListVariable;
import com.statefulcvm.connectors.phala.EnvEncryption;
import com.statefulcvm.delegates.support.ReplicaSets;
import com.statefulcvm.delegates.support.RolloutPlanning;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.UpdatePolicy;
import com.statefulcvm.fleet.rollout.PlannedStep;
import com.statefulcvm.fleet.rollout.RolloutPlan;
import com.statefulcvm.web.api.Ordinals;
import com.statefulcvm.web.api.ReplicaSetController;
import org.camunda.bpm.engine.impl.context.Context;
import org.camunda.bpm.engine.impl.persistence.entity.ExecutionEntity;
import org.camunda.bpm.engine.impl.util.ClockUtil;
import org.camunda.bpm.engine.MismatchingMessageCorrelationException;
import org.camunda.bpm.engine.OptimisticLockingException;
import org.camunda.bpm.engine.RuntimeService;
import org.camunda.bpm.engine.history.HistoricProcessInstance;
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
import java.util.Set;
import java.util.Map;
import java.util.Optional;

/**
 * Rollouts: the start of one (of a set, of one instance) and its preview, and of one running or done its report and
 * the operator's pause, resume and abort, each a BPMN message to that process instance.
 * A pause takes effect at the next wave boundary (a non-interrupting boundary event marks it); resume is the catch
 * event the paused rollout waits at; abort interrupts the rollout wherever it is. Each takes an optional
 * {@code {"reason": "..."}}: who asked, when and why is kept in the rollout's {@code controls} list and its report.
 */
@RestController
@RequestMapping(path = "/api", produces = "application/json")
class RolloutController {

    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(RolloutController.class);

    private final RuntimeService runtime;
    private final EngineRollouts engine;
    private final ProcedureReport report;
    private final ApiAccess access;
    private final ReplicaSets replicaSets;
    private final RolloutStarts rollouts;
    private final PolicyOverrides policies;
    private final RolloutPlanning planning;
    private final EnvSealer sealer;

    RolloutController(RuntimeService runtime, EngineRollouts engine, ProcedureReport report, ApiAccess access,
                      ReplicaSets replicaSets, RolloutStarts rollouts, PolicyOverrides policies, RolloutPlanning planning, EnvSealer sealer) {
        this.replicaSets = replicaSets;
        this.rollouts = rollouts;
        this.policies = policies;
        this.planning = planning;
        this.sealer = sealer;
        this.runtime = runtime;
        this.engine = engine;
        this.report = report;
        this.access = access;
    }

    @PostMapping(path = "/replica-sets/{name}/rollouts", consumes = "application/json")
    ResponseEntity<Map<String, Object>> startRollout(@PathVariable String name, @RequestBody JsonNode body) {
        access.requireStart("start rollouts");
        ReplicaSetSpec spec = spec(name);
        RolloutBody rollout = rolloutBody(name, body);
        String override = RolloutRequest.updatePolicyOf(body);
        policies.effective(spec, override);
        EnvEncryption.Sealed env = rollout.envs() == null ? null : sealer.seal(spec, rollout.envs());
        String processInstanceId = rollouts.start(spec, new RolloutStarts.Start(rollout.compose(), override, Set.of(), null, env));
        return ReplicaSetController.created(processInstanceId, name);
    }

    /** A rollout's compose and envs: either may be left out, not both; without a compose the set keeps its own. */
    private record RolloutBody(String compose, Map<String, String> envs) {
    }

    private RolloutBody rolloutBody(String name, JsonNode body) {
        RequestBodies.requireObject(body, "{\"dockerCompose\": \"<yaml>\"} or {\"envs\": {\"NAME\": \"value\"}}");
        RequestBodies.onlyFields(body, RolloutRequest.DOCKER_COMPOSE, RolloutRequest.ENVS, RolloutRequest.UPDATE_POLICY);
        Map<String, String> envs = RolloutRequest.envsOf(body);
        if (envs == null) {
            return new RolloutBody(RolloutRequest.dockerComposeOf(body), null);
        }
        String compose = RolloutRequest.optionalDockerComposeOf(body);
        return new RolloutBody(compose != null ? compose : rollouts.composeOfSet(name, "an env rollout without dockerCompose keeps the set's compose"), envs);
    }

    /** What a rollout started now would do, in execution order; starts nothing, so any authenticated user may ask. */
    @PostMapping(path = "/replica-sets/{name}/rollouts/plan", consumes = "application/json")
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
    @PostMapping(path = "/replica-sets/{name}/instances/{ordinal}/rollout")
    ResponseEntity<Map<String, Object>> rolloutInstance(@PathVariable String name, @PathVariable String ordinal,
                                                        @RequestBody(required = false) JsonNode body) {
        access.requireStart("start rollouts");
        ReplicaSetSpec spec = spec(name);
        int target = Ordinals.parse(spec, ordinal);
        if (body != null && !body.isNull()) {
            RequestBodies.requireObject(body, "{\"dockerCompose\": \"<yaml>\"} (both fields optional)");
            RequestBodies.onlyFields(body, RolloutRequest.DOCKER_COMPOSE, RolloutRequest.UPDATE_POLICY);
        }
        String compose = RolloutRequest.optionalDockerComposeOf(body);
        if (compose == null) {
            compose = rollouts.composeOfSet(name, "a rollout of one instance without dockerCompose takes the set's");
        }
        String override = RolloutRequest.updatePolicyOf(body);
        policies.effective(spec, override);
        String processInstanceId = rollouts.start(spec, new RolloutStarts.Start(compose, override, Set.of(target), null));
        return ReplicaSetController.created(processInstanceId, name);
    }


    static Map<String, Object> planView(RolloutPlan plan) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("replicaSet", plan.replicaSet());
        out.put("actions", plan.steps().stream().map(RolloutController::stepView).toList());
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

    @GetMapping("/rollouts/{processInstanceId}")
    Object get(@PathVariable String processInstanceId) {
        access.requireReadHistory("read rollouts");
        HistoricProcessInstance rollout = engine.rollout(processInstanceId)
                .orElseThrow(() -> new ApiProblem(HttpStatus.NOT_FOUND, "unknown rollout '" + processInstanceId + "'"));
        return report.report(ProcedureKind.ROLLOUT, rollout);
    }

    @PostMapping("/rollouts/{processInstanceId}/pause")
    ResponseEntity<Map<String, Object>> pause(@PathVariable String processInstanceId, @RequestBody(required = false) JsonNode body) {
        return control(processInstanceId, "pause", RolloutVariables.MESSAGE_PAUSE, RequestReason.of(body));
    }

    @PostMapping("/rollouts/{processInstanceId}/resume")
    ResponseEntity<Map<String, Object>> resume(@PathVariable String processInstanceId, @RequestBody(required = false) JsonNode body) {
        return control(processInstanceId, "resume", RolloutVariables.MESSAGE_RESUME, RequestReason.of(body));
    }

    @PostMapping("/rollouts/{processInstanceId}/abort")
    ResponseEntity<Map<String, Object>> abort(@PathVariable String processInstanceId, @RequestBody(required = false) JsonNode body) {
        return control(processInstanceId, "abort", RolloutVariables.MESSAGE_ABORT, RequestReason.of(body));
    }

    private ResponseEntity<Map<String, Object>> control(String pid, String action, String message, String reason) {
        access.requireControl(action + " rollouts");
        if (engine.runningRollout(pid).isEmpty()) {
            Optional<HistoricProcessInstance> ended = engine.rollout(pid);
            throw new ApiProblem(HttpStatus.NOT_FOUND, ended.isPresent()
                    ? "rollout '" + pid + "' has already ended (" + ProcedureReport.state(ended.get()) + "), there is nothing to " + action
                    : "unknown rollout '" + pid + "'");
        }
        long waiting = engine.subscriptions(pid, message);
        if (waiting == 0) {
            throw new ApiProblem(HttpStatus.CONFLICT, notWaiting(pid, action));
        }
        correlateAndRecord(pid, action, message, waiting, reason);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("processInstanceId", pid);
        body.put("requested", action);
        if (reason != null) {
            body.put("reason", reason);
        }
        return ResponseEntity.status(HttpStatus.ACCEPTED).body(body);
    }

    /**
     * Delivers the message and appends who asked, when and why to the rollout's {@code controls}, in one transaction:
     * the record is written before the message moves the rollout, so an abort that ends it keeps its entry in the
     * history, and a message the rollout refuses leaves no entry. Written as the application, not as the caller: being
     * allowed to pause a rollout is not being allowed to write its variables. The rollout's own jobs run while the
     * operator asks: when one of them changed the process instance in the meantime, the engine refuses with an
     * optimistic-locking failure, and asking again is correct.
     */
    private void correlateAndRecord(String pid, String action, String message, long waiting, String reason) {
        ObjectNode entry = JsonListVariable.entry();
        entry.put("action", action);
        entry.put("by", access.callerId());
        entry.put("at", ClockUtil.getCurrentTime().toInstant().toString());
        if (reason != null) {
            entry.put("reason", reason);
        }
        for (int attempt = 1; ; attempt++) {
            try {
                // one command, as the application: the caller's role was checked (ApiAccess.requireControl)
                AsApplication.run(runtime, () -> {
                    ExecutionEntity rollout = Context.getCommandContext().getExecutionManager().findExecutionById(pid);
                    if (rollout != null) {
                        JsonListVariable.append(rollout, RolloutVariables.CONTROLS, entry);
                    }
                    var correlation = runtime.createMessageCorrelation(message).processInstanceId(pid);
                    if (waiting == 1) {
                        correlation.correlateWithResult();
                    } else {
                        // a pause or abort boundary on every step running in parallel: each of them hears it
                        correlation.correlateAllWithResult();
                    }
                });
                return;
            } catch (MismatchingMessageCorrelationException e) {
                throw new ApiProblem(HttpStatus.CONFLICT, notWaiting(pid, action));
            } catch (OptimisticLockingException concurrentStep) {
                if (attempt >= MAX_ATTEMPTS) {
                    throw new ApiProblem(HttpStatus.CONFLICT, "the rollout kept changing while the " + action
                            + " was delivered; try again");
                }
            }
        }
    }

    private static final int MAX_ATTEMPTS = 5;

    private String notWaiting(String pid, String action) {
        return switch (action) {
            case "pause" -> engine.paused(pid)
                    ? "the rollout is already paused"
                    : "the rollout cannot be paused now: it is not updating instances (a pause is accepted once the waves have started)";
            case "resume" -> Boolean.TRUE.equals(engine.variable(pid, RolloutVariables.PAUSE_REQUESTED))
                    ? "the rollout is not paused yet: the pause takes effect at the next wave boundary"
                    : "the rollout is not paused";
            default -> "the rollout cannot be aborted now: it is not at a step that accepts an abort";
        };
    }
}
