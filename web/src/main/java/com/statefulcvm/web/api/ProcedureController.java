package com.statefulcvm.web.api;

import com.statefulcvm.delegates.procedure.RolloutVariables;
import com.statefulcvm.delegates.support.ReplicaSets;
import org.camunda.bpm.engine.HistoryService;
import org.camunda.bpm.engine.history.HistoricProcessInstance;
import org.camunda.bpm.engine.history.HistoricProcessInstanceQuery;
import org.camunda.bpm.engine.history.HistoricVariableInstance;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The audit trail beside the rollout report: {@code GET /api/heals/{id}}, {@code /api/failovers/{id}} and
 * {@code /api/scales/{id}} answer the same report as {@code GET /api/rollouts/{id}} (steps, approvals with who and
 * when, who asked, outcome, state), and {@code GET /api/replica-sets/{name}/procedures} lists a set's procedures,
 * running and past, newest first, a page at a time.
 */
@RestController
@RequestMapping(path = "/api", produces = "application/json")
class ProcedureController {

    static final int DEFAULT_LIMIT = 20;
    static final int MAX_LIMIT = 100;

    private final HistoryService history;
    private final ProcedureReport report;
    private final ReplicaSets replicaSets;
    private final ApiAccess access;

    ProcedureController(HistoryService history, ProcedureReport report, ReplicaSets replicaSets, ApiAccess access) {
        this.history = history;
        this.report = report;
        this.replicaSets = replicaSets;
        this.access = access;
    }

    @GetMapping("/heals/{processInstanceId}")
    Object heal(@PathVariable String processInstanceId) {
        return reportOf(ProcedureKind.HEAL, processInstanceId);
    }

    @GetMapping("/failovers/{processInstanceId}")
    Object failover(@PathVariable String processInstanceId) {
        return reportOf(ProcedureKind.FAILOVER, processInstanceId);
    }

    @GetMapping("/scales/{processInstanceId}")
    Object scale(@PathVariable String processInstanceId) {
        return reportOf(ProcedureKind.SCALE, processInstanceId);
    }

    @GetMapping("/lights-out-recoveries/{processInstanceId}")
    Object lightsOutRecovery(@PathVariable String processInstanceId) {
        return reportOf(ProcedureKind.LIGHTS_OUT, processInstanceId);
    }

    @GetMapping("/adoptions/{processInstanceId}")
    Object adoption(@PathVariable String processInstanceId) {
        return reportOf(ProcedureKind.ADOPTION, processInstanceId);
    }

    private Object reportOf(ProcedureKind kind, String pid) {
        access.requireReadHistory(kind.processKey(), "read " + kind.plural());
        HistoricProcessInstance procedure = history.createHistoricProcessInstanceQuery().processInstanceId(pid).singleResult();
        if (procedure == null || !kind.processKey().equals(procedure.getProcessDefinitionKey())) {
            ProcedureKind other = procedure == null ? null : ProcedureReport.kindOf(procedure).orElse(null);
            throw new ApiProblem(HttpStatus.NOT_FOUND, "unknown " + kind.kind() + " '" + pid + "'"
                    + (other == null ? "" : ": it is a " + other.kind() + " (GET " + other.reportPath(pid) + ")"));
        }
        return report.report(kind, procedure);
    }

    @GetMapping("/replica-sets/{name}/procedures")
    Map<String, Object> procedures(@PathVariable String name,
                                   @RequestParam(required = false) String kind,
                                   @RequestParam(required = false) String limit,
                                   @RequestParam(required = false) String offset) {
        if (!replicaSets.exists(name)) {
            throw new ApiProblem(HttpStatus.NOT_FOUND, "unknown replica set '" + name + "'");
        }
        List<ProcedureKind> kinds = kind == null ? List.of(ProcedureKind.values())
                : List.of(ProcedureKind.named(kind).orElseThrow(() -> new ApiProblem(HttpStatus.BAD_REQUEST,
                "kind: must be one of " + ProcedureKind.names() + " (was '" + kind + "')")));
        int size = number("limit", limit, DEFAULT_LIMIT, 1, MAX_LIMIT);
        int first = number("offset", offset, 0, 0, Integer.MAX_VALUE);
        kinds.forEach(k -> access.requireReadHistory(k.processKey(), "read the " + k.plural() + " of a replica set"));

        // Every procedure keeps the set's name in its replicaSet variable (a heal's business key is <set>/<ordinal>,
        // a rollback's that of the rollout that called it): the variable finds them all, and only them.
        HistoricProcessInstanceQuery query = history.createHistoricProcessInstanceQuery()
                .processDefinitionKeyIn(kinds.stream().map(ProcedureKind::processKey).toArray(String[]::new))
                .variableValueEquals(RolloutVariables.REPLICA_SET, name);
        long total = query.count();
        List<HistoricProcessInstance> page = query.orderByProcessInstanceStartTime().desc()
                .orderByProcessInstanceId().desc()
                .listPage(first, size);
        List<HistoricVariableInstance> variables = report.summaryVariables(page.stream().map(HistoricProcessInstance::getId).toList());
        List<Reports.Row> rows = new ArrayList<>();
        for (HistoricProcessInstance procedure : page) {
            ProcedureReport.kindOf(procedure).ifPresent(k -> rows.add(report.summary(k, procedure, variables)));
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("replicaSet", name);
        out.put("total", total);
        out.put("offset", first);
        out.put("limit", size);
        out.put("procedures", rows);
        return out;
    }

    static int number(String field, String text, int absent, int min, int max) {
        if (text == null) {
            return absent;
        }
        int value;
        try {
            value = Integer.parseInt(text.trim());
        } catch (NumberFormatException notANumber) {
            throw new ApiProblem(HttpStatus.BAD_REQUEST, field + ": must be a whole number (was '" + text + "')");
        }
        if (value < min || value > max) {
            throw new ApiProblem(HttpStatus.BAD_REQUEST, field + ": must be between " + min + " and " + max + " (was " + value + ")");
        }
        return value;
    }
}
