package com.statefulcvm.web.api;

import com.statefulcvm.delegates.rollout.RolloutVariables;
import com.statefulcvm.delegates.support.AsApplication;
import org.camunda.bpm.engine.MismatchingMessageCorrelationException;
import org.camunda.bpm.engine.OptimisticLockingException;
import org.camunda.bpm.engine.RuntimeService;
import org.camunda.bpm.engine.history.HistoricProcessInstance;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * One rollout: its report, and the operator's pause, resume and abort, each a BPMN message to that process instance.
 * A pause takes effect at the next wave boundary (a non-interrupting boundary event marks it); resume is the catch
 * event the paused rollout waits at; abort interrupts the rollout wherever it is.
 */
@RestController
@RequestMapping(path = "/api/rollouts", produces = "application/json")
class RolloutController {

    private final RuntimeService runtime;
    private final EngineRollouts engine;
    private final ProcedureReport report;
    private final ApiAccess access;

    RolloutController(RuntimeService runtime, EngineRollouts engine, ProcedureReport report, ApiAccess access) {
        this.runtime = runtime;
        this.engine = engine;
        this.report = report;
        this.access = access;
    }

    @GetMapping("/{processInstanceId}")
    Map<String, Object> get(@PathVariable String processInstanceId) {
        access.requireReadHistory("read rollouts");
        HistoricProcessInstance rollout = engine.rollout(processInstanceId)
                .orElseThrow(() -> new ApiProblem(HttpStatus.NOT_FOUND, "unknown rollout '" + processInstanceId + "'"));
        return report.report(ProcedureKind.ROLLOUT, rollout);
    }

    @PostMapping("/{processInstanceId}/pause")
    ResponseEntity<Map<String, Object>> pause(@PathVariable String processInstanceId) {
        return control(processInstanceId, "pause", RolloutVariables.MESSAGE_PAUSE);
    }

    @PostMapping("/{processInstanceId}/resume")
    ResponseEntity<Map<String, Object>> resume(@PathVariable String processInstanceId) {
        return control(processInstanceId, "resume", RolloutVariables.MESSAGE_RESUME);
    }

    @PostMapping("/{processInstanceId}/abort")
    ResponseEntity<Map<String, Object>> abort(@PathVariable String processInstanceId) {
        return control(processInstanceId, "abort", RolloutVariables.MESSAGE_ABORT);
    }

    private ResponseEntity<Map<String, Object>> control(String pid, String action, String message) {
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
        correlate(pid, action, message, waiting);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("processInstanceId", pid);
        body.put("requested", action);
        return ResponseEntity.status(HttpStatus.ACCEPTED).body(body);
    }

    /**
     * The rollout's own jobs run while the operator asks: when one of them changed the process instance in the
     * meantime, the engine refuses the message with an optimistic-locking failure, and asking again is correct.
     */
    private void correlate(String pid, String action, String message, long waiting) {
        for (int attempt = 1; ; attempt++) {
            try {
                // as the application: the caller's role was checked (ApiAccess.requireControl)
                AsApplication.run(runtime, () -> {
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
