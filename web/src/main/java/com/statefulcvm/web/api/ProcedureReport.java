package com.statefulcvm.web.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.statefulcvm.delegates.procedure.HealVariables;
import com.statefulcvm.delegates.procedure.RolloutVariables;
import com.statefulcvm.delegates.procedure.ScaleVariables;
import org.camunda.bpm.engine.HistoryService;
import org.camunda.bpm.engine.ProcessEngineException;
import org.camunda.bpm.engine.RuntimeService;
import org.camunda.bpm.engine.TaskService;
import org.camunda.bpm.engine.history.HistoricActivityInstance;
import org.camunda.bpm.engine.history.HistoricProcessInstance;
import org.camunda.bpm.engine.history.HistoricTaskInstance;
import org.camunda.bpm.engine.history.HistoricVariableInstance;
import org.camunda.bpm.engine.history.UserOperationLogEntry;
import org.camunda.bpm.engine.runtime.VariableInstance;
import org.camunda.bpm.engine.task.Task;
import org.springframework.stereotype.Component;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Date;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What an operator procedure did and what holds it now, read from the engine's history, so that it works the same for
 * running and finished ones: {@code GET /api/rollouts/{id}}, {@code /api/heals/{id}}, {@code /api/failovers/{id}} and
 * {@code /api/scales/{id}} are this one report ({@link ProcedureKind} says what differs), and so is each row of a set's
 * procedure list. Covers the procedure's own instance, the instances it called (hooks, attestation) and, for a
 * rollout, a rollback it started (a rollout whose {@code rollbackOf} names it).
 */
@Component
public class ProcedureReport {

    private static final int MAX_DEPTH = 4;
    private static final List<String> COMMON = List.of(RolloutVariables.REPLICA_SET, RolloutVariables.REQUESTED_BY,
            RolloutVariables.UPDATE_REVISION, RolloutVariables.OUTCOME, RolloutVariables.STAGE, RolloutVariables.PAUSE_REQUESTED,
            RolloutVariables.STEP_OUTCOME, RolloutVariables.APPROVED, RolloutVariables.DECISION, RolloutVariables.APPROVED_BY,
            RolloutVariables.DECISION_COMMENT, RolloutVariables.CONTROLS,
            RolloutVariables.ROLLBACK_TO_REVISION, RolloutVariables.ROLLBACK_OF, RolloutVariables.LAST_GOOD_REVISION,
            RolloutVariables.UPDATE_POLICY_OVERRIDE, RolloutVariables.TARGET_ORDINALS, RolloutVariables.TARGET_ENV_KEYS,
            ScaleVariables.SLOTS_DONE);
    private static final String[] NAMES = names();

    private static String[] names() {
        Set<String> names = new LinkedHashSet<>(COMMON);
        for (ProcedureKind kind : ProcedureKind.values()) {
            if (kind.resultVariable() != null) {
                names.add(kind.resultVariable());
            }
            names.addAll(kind.details().keySet());
        }
        return names.toArray(String[]::new);
    }

    private final HistoryService history;
    private final RuntimeService runtime;
    private final TaskService tasks;
    private final EngineRollouts engine;
    private final ObjectMapper json;

    ProcedureReport(HistoryService history, RuntimeService runtime, TaskService tasks, EngineRollouts engine, ObjectMapper json) {
        this.history = history;
        this.runtime = runtime;
        this.tasks = tasks;
        this.engine = engine;
        this.json = json;
    }

    /** The procedure's kind, from its diagram; empty for an instance of any other process. */
    static Optional<ProcedureKind> kindOf(HistoricProcessInstance instance) {
        return ProcedureKind.ofProcessKey(instance.getProcessDefinitionKey());
    }

    public Map<String, Object> report(ProcedureKind kind, HistoricProcessInstance procedure) {
        String pid = procedure.getId();
        boolean running = procedure.getEndTime() == null;
        boolean rollout = kind == ProcedureKind.ROLLOUT;
        List<HistoricProcessInstance> related = related(procedure);
        List<String> relatedIds = related.stream().map(HistoricProcessInstance::getId).toList();
        List<HistoricVariableInstance> variables = history.createHistoricVariableInstanceQuery()
                .processInstanceIdIn(relatedIds.toArray(String[]::new))
                .variableNameIn(NAMES)
                .unlimitedList();

        Map<String, Object> out = new LinkedHashMap<>();
        out.put("kind", kind.kind());
        out.put("processInstanceId", pid);
        Object set = processVariable(variables, pid, RolloutVariables.REPLICA_SET);
        out.put("replicaSet", set != null ? set : procedure.getBusinessKey());
        out.put("state", state(procedure));
        out.put("startedAt", instant(procedure.getStartTime()));
        out.put("endedAt", instant(procedure.getEndTime()));
        out.put("requestedBy", requestedBy(procedure, processVariable(variables, pid, RolloutVariables.REQUESTED_BY)));
        if (procedure.getSuperProcessInstanceId() != null) {
            out.put("calledBy", procedure.getSuperProcessInstanceId());
        }
        if (rollout) {
            out.put("updateRevision", processVariable(variables, pid, RolloutVariables.UPDATE_REVISION));
            putIfPresent(out, "lastGoodRevision", processVariable(variables, pid, RolloutVariables.LAST_GOOD_REVISION));
            putIfPresent(out, "rollbackToRevision", processVariable(variables, pid, RolloutVariables.ROLLBACK_TO_REVISION));
            putIfPresent(out, "rollbackOf", processVariable(variables, pid, RolloutVariables.ROLLBACK_OF));
            putIfPresent(out, "targetOrdinals", processVariable(variables, pid, RolloutVariables.TARGET_ORDINALS));
            // an env rollout: the names it set (the values went encrypted to the CVMs and are nowhere here)
            putIfPresent(out, "envKeys", processVariable(variables, pid, RolloutVariables.TARGET_ENV_KEYS));
            putIfPresent(out, "updatePolicy", parsed(processVariable(variables, pid, RolloutVariables.UPDATE_POLICY_OVERRIDE)));
            // the operators' pause, resume and abort requests, with who, when and why
            putIfPresent(out, "controls", parsed(processVariable(variables, pid, RolloutVariables.CONTROLS)));
        }
        kind.details().forEach((variable, field) -> putIfPresent(out, field, processVariable(variables, pid, variable)));
        if (kind.resultVariable() != null) {
            out.put("result", processVariable(variables, pid, kind.resultVariable()));
        }
        out.put("outcome", outcome(procedure, processVariable(variables, pid, RolloutVariables.OUTCOME)));
        Object stage = running ? engine.variable(pid, RolloutVariables.STAGE) : processVariable(variables, pid, RolloutVariables.STAGE);
        out.put("stage", stage == null ? null : stage.toString());
        boolean paused = rollout && running && engine.paused(pid);
        boolean pauseRequested = rollout && running && !paused
                && Boolean.TRUE.equals(engine.variable(pid, RolloutVariables.PAUSE_REQUESTED));
        if (rollout) {
            out.put("paused", paused);
            if (pauseRequested) {
                out.put("pauseRequested", true);
            }
        }
        out.put("steps", steps(kind, related, variables, pid));
        List<Map<String, Object>> approvals = approvals(relatedIds, variables);
        // beside requestedBy: who approved it (four-eyes: another user, where the set asks for it)
        out.put("approvedBy", approvals.stream().filter(a -> "approved".equals(a.get("decision")))
                .map(a -> a.get("by")).filter(Objects::nonNull).distinct().toList());
        out.put("approvals", approvals);
        out.put("blockers", running ? blockers(pid, related, paused, pauseRequested, stage) : List.of());
        if (rollout) {
            out.put("rollbacks", related.stream()
                    .filter(p -> !p.getId().equals(pid) && RolloutVariables.PROCESS_KEY.equals(p.getProcessDefinitionKey()))
                    .map(p -> {
                        Map<String, Object> r = new LinkedHashMap<>();
                        r.put("processInstanceId", p.getId());
                        r.put("state", state(p));
                        r.put("startedAt", instant(p.getStartTime()));
                        r.put("endedAt", instant(p.getEndTime()));
                        return r;
                    }).toList());
        }
        return out;
    }

    /**
     * One row of a set's procedure list: kind, id, who asked, when it started and ended, its state and outcome.
     * {@code variables}: the procedures' own requestedBy, outcome and detail variables, read once for the whole page.
     */
    Map<String, Object> summary(ProcedureKind kind, HistoricProcessInstance procedure, List<HistoricVariableInstance> variables) {
        String pid = procedure.getId();
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("kind", kind.kind());
        row.put("processInstanceId", pid);
        row.put("state", state(procedure));
        row.put("requestedBy", requestedBy(procedure, processVariable(variables, pid, RolloutVariables.REQUESTED_BY)));
        row.put("startedAt", instant(procedure.getStartTime()));
        row.put("endedAt", instant(procedure.getEndTime()));
        if (kind.resultVariable() != null) {
            row.put("result", processVariable(variables, pid, kind.resultVariable()));
        }
        row.put("outcome", outcome(procedure, processVariable(variables, pid, RolloutVariables.OUTCOME)));
        if (kind == ProcedureKind.HEAL) {
            putIfPresent(row, "slot", processVariable(variables, pid, HealVariables.SLOT));
        }
        if (procedure.getSuperProcessInstanceId() != null) {
            row.put("calledBy", procedure.getSuperProcessInstanceId());
        }
        row.put("report", kind.reportPath(pid));
        return row;
    }

    /** The variables {@link #summary} reads, of these procedures. */
    List<HistoricVariableInstance> summaryVariables(List<String> processInstanceIds) {
        if (processInstanceIds.isEmpty()) {
            return List.of();
        }
        Set<String> names = new LinkedHashSet<>(List.of(RolloutVariables.REQUESTED_BY, RolloutVariables.OUTCOME, HealVariables.SLOT));
        for (ProcedureKind kind : ProcedureKind.values()) {
            if (kind.resultVariable() != null) {
                names.add(kind.resultVariable());
            }
        }
        return history.createHistoricVariableInstanceQuery()
                .processInstanceIdIn(processInstanceIds.toArray(String[]::new))
                .variableNameIn(names.toArray(String[]::new))
                .unlimitedList();
    }

    private static Object requestedBy(HistoricProcessInstance procedure, Object recorded) {
        return recorded != null ? recorded : procedure.getStartUserId();
    }

    public static String state(HistoricProcessInstance p) {
        String state = p.getState();
        if (state == null) {
            return p.getEndTime() == null ? "running" : "completed";
        }
        return switch (state) {
            case HistoricProcessInstance.STATE_ACTIVE -> "running";
            case HistoricProcessInstance.STATE_SUSPENDED -> "suspended";
            case HistoricProcessInstance.STATE_COMPLETED -> "completed";
            case HistoricProcessInstance.STATE_EXTERNALLY_TERMINATED -> "externally terminated";
            case HistoricProcessInstance.STATE_INTERNALLY_TERMINATED -> "internally terminated";
            default -> state.toLowerCase(Locale.ROOT).replace('_', ' ');
        };
    }

    /** The procedure, what it called, and the rollbacks a rollout started, each with what they called in turn. */
    private List<HistoricProcessInstance> related(HistoricProcessInstance procedure) {
        Map<String, HistoricProcessInstance> found = new LinkedHashMap<>();
        found.put(procedure.getId(), procedure);
        List<HistoricProcessInstance> frontier = List.of(procedure);
        for (int depth = 0; depth < MAX_DEPTH && !frontier.isEmpty(); depth++) {
            List<HistoricProcessInstance> next = new ArrayList<>();
            for (HistoricProcessInstance parent : frontier) {
                List<HistoricProcessInstance> children = new ArrayList<>(
                        history.createHistoricProcessInstanceQuery().superProcessInstanceId(parent.getId()).unlimitedList());
                if (RolloutVariables.PROCESS_KEY.equals(parent.getProcessDefinitionKey())) {
                    children.addAll(history.createHistoricProcessInstanceQuery()
                            .processDefinitionKey(RolloutVariables.PROCESS_KEY)
                            .variableValueEquals(RolloutVariables.ROLLBACK_OF, parent.getId())
                            .unlimitedList());
                }
                for (HistoricProcessInstance child : children) {
                    if (found.putIfAbsent(child.getId(), child) == null) {
                        next.add(child);
                    }
                }
            }
            frontier = next;
        }
        return new ArrayList<>(found.values());
    }

    /**
     * What the procedure did, oldest first: what it records of each instance step where it keeps such a record (a
     * rollout's stepOutcome, a scale's slotsDone), else the steps of its diagram the engine's history holds.
     */
    private List<?> steps(ProcedureKind kind, List<HistoricProcessInstance> related, List<HistoricVariableInstance> variables,
                          String pid) {
        if (kind == ProcedureKind.ROLLOUT) {
            return rolloutSteps(related, variables, pid);
        }
        if (kind == ProcedureKind.SCALE && parsed(processVariable(variables, pid, ScaleVariables.SLOTS_DONE)) instanceof ArrayNode done) {
            List<JsonNode> steps = new ArrayList<>();
            done.forEach(steps::add);
            return steps;
        }
        return activitySteps(pid);
    }

    /**
     * Every task and call of the procedure's own diagram the engine has started, with when it began and ended. A name
     * written with an expression ({@code Approve restarting ${slot}}) is shown as the operator saw it: a user task's
     * own name, else the expression's variable as the procedure had it.
     */
    private List<Map<String, Object>> activitySteps(String pid) {
        List<HistoricActivityInstance> activities = history.createHistoricActivityInstanceQuery()
                .processInstanceId(pid)
                .orderByHistoricActivityInstanceStartTime().asc()
                .orderPartiallyByOccurrence().asc()
                .unlimitedList().stream()
                .filter(a -> STEP_TYPES.contains(a.getActivityType()))
                .toList();
        Map<String, String> taskNames = new HashMap<>();
        history.createHistoricTaskInstanceQuery().processInstanceId(pid).unlimitedList()
                .forEach(t -> taskNames.put(t.getActivityInstanceId(), t.getName()));
        Map<String, Object> named = namesIn(pid, activities);
        List<Map<String, Object>> steps = new ArrayList<>();
        for (HistoricActivityInstance a : activities) {
            String name = taskNames.getOrDefault(a.getId(), a.getActivityName());
            Map<String, Object> step = new LinkedHashMap<>();
            step.put("step", name == null ? a.getActivityId() : resolved(name, named));
            step.put("activityId", a.getActivityId());
            step.put("startedAt", instant(a.getStartTime()));
            step.put("endedAt", instant(a.getEndTime()));
            if (a.isCanceled()) {
                step.put("canceled", true);
            }
            if (a.getCalledProcessInstanceId() != null) {
                step.put("calledProcessInstanceId", a.getCalledProcessInstanceId());
            }
            steps.add(step);
        }
        return steps;
    }

    private static final Pattern NAME_EXPRESSION = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)}");

    /** The procedure's own values of the variables the activities' names refer to. */
    private Map<String, Object> namesIn(String pid, List<HistoricActivityInstance> activities) {
        Set<String> wanted = new LinkedHashSet<>();
        for (HistoricActivityInstance a : activities) {
            Matcher m = NAME_EXPRESSION.matcher(Objects.toString(a.getActivityName(), ""));
            while (m.find()) {
                wanted.add(m.group(1));
            }
        }
        Map<String, Object> values = new HashMap<>();
        if (wanted.isEmpty()) {
            return values;
        }
        for (HistoricVariableInstance v : history.createHistoricVariableInstanceQuery().processInstanceId(pid)
                .variableNameIn(wanted.toArray(String[]::new)).unlimitedList()) {
            if (v.getValue() != null && (pid.equals(v.getExecutionId()) || !values.containsKey(v.getName()))) {
                values.put(v.getName(), v.getValue());
            }
        }
        return values;
    }

    private static String resolved(String name, Map<String, Object> values) {
        Matcher m = NAME_EXPRESSION.matcher(name);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            Object value = values.get(m.group(1));
            m.appendReplacement(out, Matcher.quoteReplacement(value == null ? m.group() : value.toString()));
        }
        m.appendTail(out);
        return out.toString();
    }

    /** Activity types that are steps an operator reads as such; gateways, events and sub-process frames are not. */
    private static final Set<String> STEP_TYPES = Set.of("serviceTask", "userTask", "callActivity", "scriptTask", "sendTask",
            "businessRuleTask", "task", "manualTask", "receiveTask");

    /** One row per finished instance step: the stepOutcome each one writes, oldest first. */
    private List<JsonNode> rolloutSteps(List<HistoricProcessInstance> related, List<HistoricVariableInstance> variables, String pid) {
        Set<String> rollouts = new LinkedHashSet<>();
        related.stream().filter(p -> RolloutVariables.PROCESS_KEY.equals(p.getProcessDefinitionKey())).forEach(p -> rollouts.add(p.getId()));
        List<JsonNode> steps = new ArrayList<>();
        for (HistoricVariableInstance v : variables) {
            if (!RolloutVariables.STEP_OUTCOME.equals(v.getName()) || !rollouts.contains(v.getProcessInstanceId()) || v.getValue() == null) {
                continue;
            }
            JsonNode step = parsed(v.getValue());
            if (step instanceof ObjectNode object && !pid.equals(v.getProcessInstanceId())) {
                object.put("processInstanceId", v.getProcessInstanceId());
            }
            if (step != null) {
                steps.add(step);
            }
        }
        steps.sort(Comparator.comparing(ProcedureReport::at, Comparator.nullsLast(Comparator.naturalOrder())));
        return steps;
    }

    private static Instant at(JsonNode step) {
        JsonNode at = step.get("at");
        if (at == null || at.isNull()) {
            return null;
        }
        if (at.isNumber()) {
            return Instant.ofEpochMilli(at.asLong());
        }
        try {
            return Instant.parse(at.asText());
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** Every user task done in the procedure (approvals and halt decisions): what was decided, by whom, when. */
    private List<Map<String, Object>> approvals(List<String> relatedIds, List<HistoricVariableInstance> variables) {
        List<HistoricTaskInstance> done = new ArrayList<>();
        for (String id : relatedIds) {
            done.addAll(history.createHistoricTaskInstanceQuery().processInstanceId(id).finished().unlimitedList());
        }
        done.sort(Comparator.comparing(HistoricTaskInstance::getEndTime, Comparator.nullsLast(Comparator.naturalOrder())));
        List<Map<String, Object>> approvals = new ArrayList<>();
        for (HistoricTaskInstance task : done) {
            Map<String, Object> approval = new LinkedHashMap<>();
            approval.put("task", task.getName());
            approval.put("taskDefinitionKey", task.getTaskDefinitionKey());
            approval.put("decision", decision(task, variables));
            approval.put("by", completedBy(task, variables));
            approval.put("at", instant(task.getEndTime()));
            taskVariable(task, variables, RolloutVariables.DECISION_COMMENT).ifPresent(comment -> approval.put("comment", comment));
            if (!relatedIds.isEmpty() && !relatedIds.get(0).equals(task.getProcessInstanceId())) {
                approval.put("processInstanceId", task.getProcessInstanceId());
            }
            approvals.add(approval);
        }
        return approvals;
    }

    /** A variable set on the task itself (its listener's record of the decision). */
    private static Optional<Object> taskVariable(HistoricTaskInstance task, List<HistoricVariableInstance> variables, String name) {
        return variables.stream()
                .filter(v -> name.equals(v.getName()) && task.getId().equals(v.getTaskId()))
                .map(HistoricVariableInstance::getValue)
                .filter(Objects::nonNull)
                .findFirst();
    }

    /** The task's own approved/decision variable (the task's local scope, or set on the task itself). */
    private static String decision(HistoricTaskInstance task, List<HistoricVariableInstance> variables) {
        Optional<HistoricVariableInstance> local = variables.stream()
                .filter(v -> RolloutVariables.APPROVED.equals(v.getName()) || RolloutVariables.DECISION.equals(v.getName()))
                .filter(v -> v.getValue() != null)
                .filter(v -> task.getId().equals(v.getTaskId())
                        || (task.getActivityInstanceId() != null && task.getActivityInstanceId().equals(v.getActivityInstanceId())))
                .findFirst();
        if (local.isEmpty()) {
            return task.getDeleteReason() != null && !"completed".equals(task.getDeleteReason()) ? task.getDeleteReason() : null;
        }
        Object value = local.get().getValue();
        if (value instanceof Boolean approved) {
            return approved ? "approved" : "rejected";
        }
        return value.toString();
    }

    /**
     * Who completed the task: the authenticated user the task's listener recorded (approvedBy); for a task completed
     * before that was recorded, the user the engine logged with the completion; else the assignee.
     */
    private String completedBy(HistoricTaskInstance task, List<HistoricVariableInstance> variables) {
        Optional<String> recorded = variables.stream()
                .filter(v -> RolloutVariables.APPROVED_BY.equals(v.getName()) && task.getId().equals(v.getTaskId()))
                .map(HistoricVariableInstance::getValue)
                .filter(Objects::nonNull)
                .map(Object::toString)
                .filter(by -> !"unknown".equals(by))
                .findFirst();
        if (recorded.isPresent()) {
            return recorded.get();
        }
        return history.createUserOperationLogQuery()
                .taskId(task.getId())
                .operationType(UserOperationLogEntry.OPERATION_TYPE_COMPLETE)
                .unlimitedList().stream()
                .map(UserOperationLogEntry::getUserId)
                .filter(Objects::nonNull)
                .findFirst()
                .orElse(task.getAssignee());
    }

    private List<String> blockers(String pid, List<HistoricProcessInstance> related, boolean paused, boolean pauseRequested, Object stage) {
        List<String> blockers = new ArrayList<>();
        List<String> running = related.stream().filter(p -> p.getEndTime() == null).map(HistoricProcessInstance::getId).toList();
        for (String id : running) {
            for (Task task : tasks.createTaskQuery().processInstanceId(id).unlimitedList()) {
                blockers.add(taskBlocker(task));
            }
        }
        if (paused) {
            blockers.add("paused: waiting for resume");
        } else if (pauseRequested) {
            blockers.add("pausing: takes effect at the next wave boundary");
        }
        List<String> stepStages = new ArrayList<>();
        for (VariableInstance v : runtime.createVariableInstanceQuery()
                .processInstanceIdIn(running.toArray(String[]::new))
                .variableName(RolloutVariables.STAGE)
                .unlimitedList()) {
            boolean processLevel = v.getProcessInstanceId().equals(v.getExecutionId());
            if (!processLevel && v.getValue() != null) {
                stepStages.add(v.getValue().toString());
            }
        }
        if (stepStages.isEmpty() && blockers.isEmpty() && stage != null) {
            stepStages.add(stage.toString());
        }
        blockers.addAll(stepStages);
        return blockers;
    }

    private String taskBlocker(Task task) {
        String key = Objects.toString(task.getTaskDefinitionKey(), "") + " " + Objects.toString(task.getName(), "");
        if (key.contains("Halt") || key.contains("halted")) {
            Object reason;
            try {
                reason = tasks.getVariable(task.getId(), ScaleVariables.HALT_REASON);
            } catch (ProcessEngineException completedMeanwhile) {
                reason = null;
            }
            return "halted: " + (reason != null ? reason : task.getName());
        }
        if (key.contains("Approv") || key.contains("approv")) {
            // which approval: the leader's step and the one before the rollout ask different things
            return "waiting: approval (" + task.getName() + ")";
        }
        return "waiting: " + task.getName();
    }

    private String outcome(HistoricProcessInstance procedure, Object recorded) {
        if (recorded != null) {
            return recorded.toString();
        }
        if (procedure.getEndTime() == null) {
            return null;
        }
        if (HistoricProcessInstance.STATE_EXTERNALLY_TERMINATED.equals(procedure.getState())
                || HistoricProcessInstance.STATE_INTERNALLY_TERMINATED.equals(procedure.getState())) {
            return "terminated" + (procedure.getDeleteReason() == null ? "" : ": " + procedure.getDeleteReason());
        }
        if (procedure.getEndActivityId() == null) {
            return "completed";
        }
        return history.createHistoricActivityInstanceQuery()
                .processInstanceId(procedure.getId())
                .activityId(procedure.getEndActivityId())
                .unlimitedList().stream()
                .map(HistoricActivityInstance::getActivityName)
                .filter(Objects::nonNull)
                .findFirst()
                .orElse(procedure.getEndActivityId());
    }

    /** A variable of the process instance's own scope (not a local one of a step or task). */
    private static Object processVariable(List<HistoricVariableInstance> variables, String pid, String name) {
        return variables.stream()
                .filter(v -> name.equals(v.getName()) && pid.equals(v.getProcessInstanceId()))
                .filter(v -> pid.equals(v.getExecutionId()) && v.getTaskId() == null)
                .map(HistoricVariableInstance::getValue)
                .filter(Objects::nonNull)
                .findFirst()
                .orElse(null);
    }

    /** stepOutcome and the override are JSON text; a JSON (Spin) or map value is read as JSON too. */
    private JsonNode parsed(Object value) {
        if (value == null) {
            return null;
        }
        if (value instanceof Map<?, ?> || value instanceof List<?>) {
            return json.valueToTree(value);
        }
        try {
            return json.readTree(value.toString());
        } catch (JsonProcessingException e) {
            return json.getNodeFactory().textNode(value.toString());
        }
    }

    private static void putIfPresent(Map<String, Object> out, String key, Object value) {
        if (value != null) {
            out.put(key, value);
        }
    }

    private static Instant instant(Date date) {
        return date == null ? null : date.toInstant();
    }
}
