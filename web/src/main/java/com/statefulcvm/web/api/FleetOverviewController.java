package com.statefulcvm.web.api;

import com.statefulcvm.delegates.procedure.RolloutVariables;
import com.statefulcvm.delegates.support.ReplicaSets;
import com.statefulcvm.fleet.InstanceRecord;
import com.statefulcvm.fleet.InstanceRegistry;
import com.statefulcvm.fleet.ReplicaSetSpec;
import org.camunda.bpm.engine.RuntimeService;
import org.camunda.bpm.engine.TaskService;
import org.camunda.bpm.engine.runtime.ProcessInstance;
import org.camunda.bpm.engine.task.Task;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The fleet at a glance, for the Cockpit dashboard: per set its readiness, revisions and set-level conditions, the
 * procedures running on it (with what they are doing) and the approvals waiting for it in Tasklist; and what the caller
 * may do ({@code you}), so that a screen offers only the buttons that would be accepted. From our tables and the
 * engine only: no Phala call, so a dashboard refreshing every few seconds costs nothing outside. Engine queries run as
 * the caller: a user sees the procedures and tasks their authorizations let them read.
 */
@RestController
@RequestMapping(path = "/api", produces = "application/json")
class FleetOverviewController {

    private final ReplicaSets replicaSets;
    private final InstanceRegistry registry;
    private final ReplicaSetStatus status;
    private final SetConditions conditions;
    private final RuntimeService runtime;
    private final TaskService tasks;
    private final EngineRollouts engine;
    private final ApiAccess access;
    private final ProcedureReport report;

    FleetOverviewController(ReplicaSets replicaSets, InstanceRegistry registry, ReplicaSetStatus status, SetConditions conditions,
                            RuntimeService runtime, TaskService tasks, EngineRollouts engine, ApiAccess access, ProcedureReport report) {
        this.report = report;
        this.replicaSets = replicaSets;
        this.registry = registry;
        this.status = status;
        this.conditions = conditions;
        this.runtime = runtime;
        this.tasks = tasks;
        this.engine = engine;
        this.access = access;
    }

    @GetMapping("/fleet")
    Map<String, Object> fleet() {
        List<Map<String, Object>> sets = new ArrayList<>();
        for (ReplicaSetSpec spec : replicaSets.all()) {
            List<InstanceRecord> records = registry.instances(spec.getName());
            ReplicaSetView view = status.view(spec, records, false, null);
            Map<String, Object> set = new LinkedHashMap<>();
            set.put("name", spec.getName());
            set.put("workloadType", spec.getWorkloadType());
            set.put("replicas", view.replicas());
            set.put("readyReplicas", view.readyReplicas());
            set.put("currentRevision", view.currentRevision());
            set.put("updateRevision", view.updateRevision());
            set.put("mixedRevisions", view.mixedRevisions());
            set.put("conditions", conditions.of(spec, records, view));
            set.put("procedures", running(spec.getName()));
            set.put("approvals", approvals(spec.getName()));
            sets.add(set);
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("you", you());
        out.put("sets", sets);
        return out;
    }

    /** The caller and what they may do: start each procedure, control rollouts. */
    @GetMapping("/me")
    Map<String, Object> you() {
        Map<String, Object> may = new LinkedHashMap<>();
        for (ProcedureKind kind : ProcedureKind.values()) {
            may.put(kind.kind(), access.mayStart(kind.processKey()));
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("user", access.callerId());
        out.put("mayStart", may);
        out.put("mayControlRollouts", access.mayControl());
        return out;
    }

    /** The operator procedures running on the set: a rollback a rollout called is listed beside it. */
    private List<Map<String, Object>> running(String set) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (ProcedureKind kind : ProcedureKind.values()) {
            for (ProcessInstance instance : runtime.createProcessInstanceQuery().processDefinitionKey(kind.processKey())
                    .variableValueEquals(RolloutVariables.REPLICA_SET, set).unlimitedList()) {
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("kind", kind.kind());
                row.put("processInstanceId", instance.getId());
                row.put("stage", engine.stage(instance.getId()));
                if (kind == ProcedureKind.ROLLOUT) {
                    row.put("paused", engine.paused(instance.getId()));
                    row.put("progress", report.progress(instance.getId()));
                }
                row.put("requestedBy", engine.variable(instance.getId(), RolloutVariables.REQUESTED_BY));
                row.put("report", kind.reportPath(instance.getId()));
                out.add(row);
            }
        }
        return out;
    }

    /** The user tasks waiting for the set (approvals, decisions on halted procedures), oldest first. */
    private List<Map<String, Object>> approvals(String set) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (Task task : tasks.createTaskQuery().processVariableValueEquals(RolloutVariables.REPLICA_SET, set)
                .orderByTaskCreateTime().asc().unlimitedList()) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("taskId", task.getId());
            row.put("name", task.getName());
            row.put("processInstanceId", task.getProcessInstanceId());
            row.put("created", task.getCreateTime() == null ? null : Instant.ofEpochMilli(task.getCreateTime().getTime()));
            row.put("assignee", task.getAssignee());
            out.add(row);
        }
        return out;
    }
}
