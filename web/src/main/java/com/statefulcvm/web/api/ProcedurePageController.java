package com.statefulcvm.web.api;

import com.statefulcvm.delegates.procedure.RolloutVariables;
import org.camunda.bpm.engine.HistoryService;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.RepositoryService;
import org.camunda.bpm.engine.history.HistoricActivityInstance;
import org.camunda.bpm.engine.history.HistoricProcessInstance;
import org.camunda.bpm.engine.impl.cfg.ProcessEngineConfigurationImpl;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code GET /api/procedures/{id}}: what the Cockpit plugin's procedure page draws for any operator procedure, running
 * or finished (the Community edition's Cockpit has no page for a finished one): its report, the diagram of the very
 * version it ran on, every element of that diagram it passed through (for the diagram's markers), and its tasks and
 * calls named as the operator saw them, with when (for the timeline), all from the engine's history.
 */
@RestController
@RequestMapping(path = "/api", produces = "application/json")
class ProcedurePageController {

    private final HistoryService history;
    private final RepositoryService repository;
    private final ProcedureReport report;
    private final ApiAccess access;
    private final ProcessEngineConfigurationImpl engine;

    ProcedurePageController(HistoryService history, RepositoryService repository, ProcedureReport report, ApiAccess access,
                            ProcessEngine engine) {
        this.engine = (ProcessEngineConfigurationImpl) engine.getProcessEngineConfiguration();
        this.history = history;
        this.repository = repository;
        this.report = report;
        this.access = access;
    }

    /** One element of the diagram as the procedure passed it; {@code endedAt} null while it is still there. */
    record Visit(String activityId, String type, Instant startedAt, Instant endedAt, boolean canceled) {
    }

    @GetMapping("/procedures/{processInstanceId}")
    Map<String, Object> page(@PathVariable String processInstanceId) {
        HistoricProcessInstance procedure = asTheApplication(processInstanceId);
        if (procedure == null) {
            throw new ApiProblem(HttpStatus.NOT_FOUND, "unknown procedure '" + processInstanceId + "': the engine's history has no process instance of that id");
        }
        // a helper (a drain, a hook) a procedure called gets the page too, under the procedure that called it
        HistoricProcessInstance root = procedure.getRootProcessInstanceId() == null || procedure.getRootProcessInstanceId().equals(processInstanceId)
                ? procedure : asTheApplication(procedure.getRootProcessInstanceId());
        ProcedureKind kind = root == null ? null : ProcedureReport.kindOf(root).orElse(null);
        if (kind == null) {
            throw new ApiProblem(HttpStatus.NOT_FOUND, "unknown procedure '" + processInstanceId + "': '"
                    + procedure.getProcessDefinitionKey() + "' is not one of the operator procedures, nor called by one");
        }
        access.requireReadHistory(procedure.getProcessDefinitionKey(), "read " + kind.plural());
        boolean own = root == procedure;
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("processInstanceId", processInstanceId);
        out.put("kind", kind.kind());
        out.put("processDefinitionKey", procedure.getProcessDefinitionKey());
        out.put("processDefinitionId", procedure.getProcessDefinitionId());
        out.put("processDefinitionVersion", repository.getProcessDefinition(procedure.getProcessDefinitionId()).getVersion());
        out.put("state", procedure.getState());
        out.put("startedAt", instant(procedure.getStartTime()));
        out.put("endedAt", instant(procedure.getEndTime()));
        out.put("calledBy", procedure.getSuperProcessInstanceId());
        out.put("procedureId", root.getId());
        out.put("reportPath", kind.reportPath(root.getId()));
        out.put("report", own ? report.report(kind, procedure) : null);
        // what a rollout changes, as its approver saw it (secrets already masked by the plan)
        out.put("composeDiff", own && kind == ProcedureKind.ROLLOUT ? variable(processInstanceId, RolloutVariables.COMPOSE_DIFF) : null);
        out.put("timeline", report.activitySteps(processInstanceId));
        out.put("visits", visits(processInstanceId));
        out.put("diagram", diagram(procedure.getProcessDefinitionId()));
        return out;
    }

    /**
     * Found as the application, before the caller's rights are asked: the engine's authorized query would answer "not
     * found" to someone who may not read it, where the answer is "you may not read rollouts".
     */
    private HistoricProcessInstance asTheApplication(String pid) {
        return engine.getCommandExecutorTxRequired().execute(context -> {
            context.disableAuthorizationCheck();
            return context.getHistoricProcessInstanceManager().findHistoricProcessInstance(pid);
        });
    }

    private Object variable(String pid, String name) {
        return history.createHistoricVariableInstanceQuery().processInstanceId(pid).variableName(name).unlimitedList().stream()
                .map(v -> v.getValue()).filter(java.util.Objects::nonNull).findFirst().orElse(null);
    }

    private List<Visit> visits(String pid) {
        return history.createHistoricActivityInstanceQuery().processInstanceId(pid)
                .orderByHistoricActivityInstanceStartTime().asc().orderPartiallyByOccurrence().asc()
                .unlimitedList().stream().map(ProcedurePageController::visit).toList();
    }

    private static Visit visit(HistoricActivityInstance a) {
        return new Visit(a.getActivityId(), a.getActivityType(), instant(a.getStartTime()), instant(a.getEndTime()), a.isCanceled());
    }

    private static Instant instant(java.util.Date date) {
        return date == null ? null : date.toInstant();
    }

    private String diagram(String processDefinitionId) {
        try (InputStream xml = repository.getProcessModel(processDefinitionId)) {
            return new String(xml.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
