package com.statefulcvm.web.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.statefulcvm.delegates.procedure.RolloutVariables;
import com.statefulcvm.delegates.support.AsApplication;
import com.statefulcvm.delegates.support.JsonListVariable;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.impl.cfg.ProcessEngineConfigurationImpl;
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
import java.util.Map;
import java.util.Optional;

/**
 * One rollout: its report, and the operator's pause, resume and abort, each a BPMN message to that process instance.
 * A pause takes effect at the next wave boundary (a non-interrupting boundary event marks it); resume is the catch
 * event the paused rollout waits at; abort interrupts the rollout wherever it is. Each takes an optional
 * {@code {"reason": "..."}}: who asked, when and why is kept in the rollout's {@code controls} list and its report.
 */
@RestController
@RequestMapping(path = "/api/rollouts", produces = "application/json")
class RolloutController {

    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(RolloutController.class);

    private final RuntimeService runtime;
    private final EngineRollouts engine;
    private final ProcedureReport report;
    private final ApiAccess access;
    private final ProcessEngineConfigurationImpl configuration;

    RolloutController(RuntimeService runtime, EngineRollouts engine, ProcedureReport report, ApiAccess access, ProcessEngine processEngine) {
        this.configuration = (ProcessEngineConfigurationImpl) processEngine.getProcessEngineConfiguration();
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
    ResponseEntity<Map<String, Object>> pause(@PathVariable String processInstanceId, @RequestBody(required = false) JsonNode body) {
        return control(processInstanceId, "pause", RolloutVariables.MESSAGE_PAUSE, RequestReason.of(body));
    }

    @PostMapping("/{processInstanceId}/resume")
    ResponseEntity<Map<String, Object>> resume(@PathVariable String processInstanceId, @RequestBody(required = false) JsonNode body) {
        return control(processInstanceId, "resume", RolloutVariables.MESSAGE_RESUME, RequestReason.of(body));
    }

    @PostMapping("/{processInstanceId}/abort")
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
        correlate(pid, action, message, waiting);
        record(pid, action, reason);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("processInstanceId", pid);
        body.put("requested", action);
        if (reason != null) {
            body.put("reason", reason);
        }
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

    /**
     * Who asked for the pause, resume or abort, when and why, appended to the rollout's {@code controls}. Written by
     * the application, not as the caller: being allowed to pause a rollout is not being allowed to write its
     * variables. An abort may have ended the rollout already; then the history keeps the request in the log only.
     */
    private void record(String pid, String action, String reason) {
        ObjectNode entry = JsonListVariable.entry();
        entry.put("action", action);
        entry.put("by", access.callerId());
        entry.put("at", ClockUtil.getCurrentTime().toInstant().toString());
        if (reason != null) {
            entry.put("reason", reason);
        }
        for (int attempt = 1; ; attempt++) {
            try {
                configuration.getCommandExecutorTxRequired().execute(context -> {
                    context.disableAuthorizationCheck();
                    ExecutionEntity rollout = context.getExecutionManager().findExecutionById(pid);
                    if (rollout != null) {
                        JsonListVariable.append(rollout, RolloutVariables.CONTROLS, entry);
                    }
                    return null;
                });
                return;
            } catch (OptimisticLockingException concurrentStep) {
                if (attempt >= MAX_ATTEMPTS) {
                    log.warn("The {} of rollout {} by {} was delivered but not recorded in its controls: it kept changing", action, pid, entry.get("by").asText());
                    return;
                }
            }
        }
    }

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
