package com.statefulcvm.web.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.statefulcvm.delegates.procedure.HealVariables;
import com.statefulcvm.delegates.procedure.ProcedureVariables;
import com.statefulcvm.delegates.procedure.RolloutVariables;
import com.statefulcvm.delegates.procedure.ScaleVariables;
import org.camunda.bpm.engine.ProcessEngineException;
import org.camunda.bpm.engine.RuntimeService;
import org.camunda.bpm.engine.TaskService;
import org.camunda.bpm.engine.history.HistoricActivityInstance;
import org.camunda.bpm.engine.history.HistoricProcessInstance;
import org.camunda.bpm.engine.history.HistoricTaskInstance;
import org.camunda.bpm.engine.history.HistoricVariableInstance;
import org.camunda.bpm.engine.runtime.VariableInstance;
import org.camunda.bpm.engine.task.Task;
import org.springframework.stereotype.Component;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Date;
import java.util.HashMap;
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
 * What an operator procedure did and what holds it now, read from the engine's history ({@link ProcedureHistory}), so
 * that it works the same for running and finished ones: {@code GET /api/rollouts/{id}}, {@code /api/heals/{id}},
 * {@code /api/failovers/{id}}, {@code /api/scales/{id}} and {@code /api/lights-out-recoveries/{id}} are this report
 * ({@link Reports.Rollout} for a rollout, {@link Reports.Procedure} with its kind's {@link Reports.Details} for the
 * others), and so is each row of a set's procedure list ({@link Reports.Row}). Covers the procedure's own instance,
 * the instances it called (hooks, attestation) and, for a rollout, a rollback it started.
 */
@Component
public class ProcedureReport {

    /** What every report reads; each kind adds its result and details ({@link ProcedureKind}). */
    private static final List<String> COMMON = List.of(RolloutVariables.REPLICA_SET, RolloutVariables.REQUESTED_BY,
            RolloutVariables.OUTCOME, RolloutVariables.STAGE, RolloutVariables.APPROVED, RolloutVariables.DECISION,
            RolloutVariables.APPROVED_BY, RolloutVariables.DECISION_COMMENT, ScaleVariables.SLOTS_DONE);
    /** What a rollout's report reads besides. */
    private static final List<String> ROLLOUT = List.of(RolloutVariables.UPDATE_REVISION, RolloutVariables.PAUSE_REQUESTED,
            RolloutVariables.STEP_OUTCOME, RolloutVariables.CONTROLS, RolloutVariables.ROLLBACK_TO_REVISION,
            RolloutVariables.ROLLBACK_OF, RolloutVariables.LAST_GOOD_REVISION, RolloutVariables.UPDATE_POLICY_OVERRIDE,
            RolloutVariables.TARGET_ORDINALS, RolloutVariables.TARGET_ENV_KEYS, RolloutVariables.ON_CHAIN_TRANSACTION_HASH,
            RolloutVariables.ON_CHAIN_REGISTERED_HASH, RolloutVariables.ON_CHAIN_COMPOSE_HASH, RolloutVariables.WAVES);
    private static final String[] NAMES = names();

    private static String[] names() {
        Set<String> names = new LinkedHashSet<>(COMMON);
        names.addAll(ROLLOUT);
        for (ProcedureKind kind : ProcedureKind.values()) {
            if (kind.resultVariable() != null) {
                names.add(kind.resultVariable());
            }
            names.addAll(kind.detailVariables());
        }
        return names.toArray(String[]::new);
    }

    /** The multi-instance element variable every per-instance step sees (a heal's slot is its process's). */
    private static final String SLOT = ProcedureVariables.SLOT;
    private static final Pattern NAME_EXPRESSION = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)}");

    private final ProcedureHistory history;
    private final RuntimeService runtime;
    private final TaskService tasks;
    private final EngineRollouts engine;
    private final ObjectMapper json;
    private final StepNames stepNames;

    ProcedureReport(ProcedureHistory history, RuntimeService runtime, TaskService tasks, EngineRollouts engine, ObjectMapper json,
                    StepNames stepNames) {
        this.stepNames = stepNames;
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

    public Object report(ProcedureKind kind, HistoricProcessInstance procedure) {
        return kind == ProcedureKind.ROLLOUT ? rollout(procedure) : procedure(kind, procedure);
    }

    private Reports.Rollout rollout(HistoricProcessInstance procedure) {
        ProcedureHistory.Recorded recorded = history.read(procedure, NAMES);
        String pid = procedure.getId();
        boolean running = procedure.getEndTime() == null;
        Object stage = stage(recorded);
        boolean paused = paused(procedure);
        boolean pauseRequested = pauseRequested(procedure, paused);
        List<Reports.Approval> approvals = approvals(recorded);
        List<JsonNode> steps = rolloutSteps(recorded);
        return new Reports.Rollout(ProcedureKind.ROLLOUT.kind(), pid, replicaSet(recorded), state(procedure),
                instant(procedure.getStartTime()), instant(procedure.getEndTime()), requestedBy(recorded),
                procedure.getSuperProcessInstanceId(),
                recorded.variable(RolloutVariables.UPDATE_REVISION),
                recorded.variable(RolloutVariables.LAST_GOOD_REVISION),
                recorded.variable(RolloutVariables.ROLLBACK_TO_REVISION),
                recorded.variable(RolloutVariables.ROLLBACK_OF),
                recorded.variable(RolloutVariables.TARGET_ORDINALS),
                recorded.variable(RolloutVariables.TARGET_ENV_KEYS),
                parsed(recorded.variable(RolloutVariables.UPDATE_POLICY_OVERRIDE)),
                parsed(recorded.variable(RolloutVariables.CONTROLS)),
                onChainRegistration(recorded),
                progress(procedure, recorded, steps, paused, pauseRequested),
                outcome(procedure, recorded.variable(RolloutVariables.OUTCOME)),
                stage == null ? null : stage.toString(),
                paused, pauseRequested ? Boolean.TRUE : null,
                steps, approvedBy(approvals), approvals,
                running ? blockers(recorded, paused, pauseRequested, stage) : List.of(),
                rollbacks(recorded));
    }

    private Reports.Procedure procedure(ProcedureKind kind, HistoricProcessInstance procedure) {
        ProcedureHistory.Recorded recorded = history.read(procedure, NAMES);
        boolean running = procedure.getEndTime() == null;
        Object stage = stage(recorded);
        List<Reports.Approval> approvals = approvals(recorded);
        return new Reports.Procedure(kind.kind(), procedure.getId(), replicaSet(recorded), state(procedure),
                instant(procedure.getStartTime()), instant(procedure.getEndTime()), requestedBy(recorded),
                procedure.getSuperProcessInstanceId(),
                kind.details(recorded::variable),
                recorded.variable(kind.resultVariable()),
                outcome(procedure, recorded.variable(RolloutVariables.OUTCOME)),
                stage == null ? null : stage.toString(),
                steps(kind, recorded), approvedBy(approvals), approvals,
                running ? blockers(recorded, false, false, stage) : List.of());
    }

    /** One row of a set's procedure list; {@code variables}: from {@link #summaryVariables}, read once for the page. */
    Reports.Row summary(ProcedureKind kind, HistoricProcessInstance procedure, List<HistoricVariableInstance> variables) {
        String pid = procedure.getId();
        Object recordedBy = ProcedureHistory.processVariable(variables, pid, RolloutVariables.REQUESTED_BY);
        return new Reports.Row(kind.kind(), pid, state(procedure), recordedBy != null ? recordedBy : procedure.getStartUserId(),
                instant(procedure.getStartTime()), instant(procedure.getEndTime()),
                kind.resultVariable() == null ? null
                        : Optional.ofNullable(ProcedureHistory.processVariable(variables, pid, kind.resultVariable())),
                outcome(procedure, ProcedureHistory.processVariable(variables, pid, RolloutVariables.OUTCOME)),
                kind == ProcedureKind.HEAL ? ProcedureHistory.processVariable(variables, pid, HealVariables.SLOT) : null,
                procedure.getSuperProcessInstanceId(),
                kind.reportPath(pid));
    }

    /** The variables {@link #summary} reads, of these procedures. */
    List<HistoricVariableInstance> summaryVariables(List<String> processInstanceIds) {
        Set<String> names = new LinkedHashSet<>(List.of(RolloutVariables.REQUESTED_BY, RolloutVariables.OUTCOME, HealVariables.SLOT));
        for (ProcedureKind kind : ProcedureKind.values()) {
            if (kind.resultVariable() != null) {
                names.add(kind.resultVariable());
            }
        }
        return history.variables(processInstanceIds, names.toArray(String[]::new));
    }

    private static Object replicaSet(ProcedureHistory.Recorded recorded) {
        Object set = recorded.variable(RolloutVariables.REPLICA_SET);
        return set != null ? set : recorded.procedure().getBusinessKey();
    }

    private static Object requestedBy(ProcedureHistory.Recorded recorded) {
        Object by = recorded.variable(RolloutVariables.REQUESTED_BY);
        return by != null ? by : recorded.procedure().getStartUserId();
    }

    private Object stage(ProcedureHistory.Recorded recorded) {
        return recorded.procedure().getEndTime() == null ? engine.variable(recorded.id(), RolloutVariables.STAGE)
                : recorded.variable(RolloutVariables.STAGE);
    }

    /**
     * How a procedure that reached an end event ended, from the event's id (the diagrams name their ends so):
     * "aborted" (an operator's or approver's abort or stop), "rejected" (an approval said no, a start was refused),
     * "failed" (it failed, rolled back, found no way on), else "completed". The engine calls all of them COMPLETED.
     */
    static String endedAs(String endActivityId) {
        if (endActivityId == null) {
            return "completed";
        }
        if (endActivityId.contains("Abort") || endActivityId.endsWith("_StopRollout") || endActivityId.endsWith("Stopped")) {
            return "aborted";
        }
        if (endActivityId.contains("Rejected") || endActivityId.endsWith("Refused") || endActivityId.endsWith("_CannotAdopt")) {
            return "rejected";
        }
        if (endActivityId.contains("Failed") || endActivityId.endsWith("_RolledBack") || endActivityId.endsWith("_NoCandidate")
                || endActivityId.endsWith("_NotConfirmed")) {
            return "failed";
        }
        return "completed";
    }

    public static String state(HistoricProcessInstance p) {
        String state = p.getState();
        if (state == null) {
            return p.getEndTime() == null ? "running" : "completed";
        }
        return switch (state) {
            case HistoricProcessInstance.STATE_ACTIVE -> "running";
            case HistoricProcessInstance.STATE_SUSPENDED -> "suspended";
            case HistoricProcessInstance.STATE_COMPLETED -> endedAs(p.getEndActivityId());
            case HistoricProcessInstance.STATE_EXTERNALLY_TERMINATED -> "externally terminated";
            case HistoricProcessInstance.STATE_INTERNALLY_TERMINATED -> "internally terminated";
            default -> state.toLowerCase(Locale.ROOT).replace('_', ' ');
        };
    }

    /** Where the rollout stands, from its plan and the instance steps it recorded; null before it planned its waves. */
    private static RolloutProgress progress(HistoricProcessInstance procedure, ProcedureHistory.Recorded recorded, List<JsonNode> steps,
                                            boolean paused, boolean pauseRequested) {
        if (!(recorded.variable(RolloutVariables.WAVES) instanceof List<?> planned)) {
            return null;
        }
        List<List<String>> waves = new ArrayList<>();
        planned.forEach(w -> waves.add(w instanceof List<?> slots ? slots.stream().map(String::valueOf).toList() : List.of(String.valueOf(w))));
        List<String> done = steps.stream().filter(s -> !s.hasNonNull("processInstanceId")).map(s -> s.path("slot").asText(null))
                .filter(Objects::nonNull).toList();
        boolean running = procedure.getEndTime() == null;
        return RolloutProgress.of(waves, done, running, instant(procedure.getStartTime()),
                running ? java.time.Instant.now() : instant(procedure.getEndTime()), paused, pauseRequested);
    }

    /**
     * Where a running rollout stands, for the Fleet's row: the same figures as its report's, from the two variables
     * they are made of (the Fleet asks every few seconds for every running rollout, so not the whole report).
     */
    public RolloutProgress progress(String pid) {
        return engine.rollout(pid).map(procedure -> {
            ProcedureHistory.Recorded recorded = history.read(procedure, RolloutVariables.WAVES, RolloutVariables.STEP_OUTCOME);
            boolean paused = paused(procedure);
            return progress(procedure, recorded, rolloutSteps(recorded), paused, pauseRequested(procedure, paused));
        }).orElse(null);
    }

    /** A running rollout held at a wave boundary, waiting for resume. */
    private boolean paused(HistoricProcessInstance procedure) {
        return procedure.getEndTime() == null && engine.paused(procedure.getId());
    }

    /** A pause asked for that has not taken hold yet. */
    private boolean pauseRequested(HistoricProcessInstance procedure, boolean paused) {
        return procedure.getEndTime() == null && !paused
                && Boolean.TRUE.equals(engine.variable(procedure.getId(), RolloutVariables.PAUSE_REQUESTED));
    }

    /** The registration the rollout committed with; null when it made none (not an on-chain KMS app). */
    private static Reports.OnChainRegistration onChainRegistration(ProcedureHistory.Recorded recorded) {
        Object transaction = recorded.variable(RolloutVariables.ON_CHAIN_TRANSACTION_HASH);
        if (transaction == null) {
            return null;
        }
        Object registered = recorded.variable(RolloutVariables.ON_CHAIN_REGISTERED_HASH);
        return new Reports.OnChainRegistration(registered != null ? registered : recorded.variable(RolloutVariables.ON_CHAIN_COMPOSE_HASH), transaction);
    }

    /** The rollbacks the rollout started. */
    private static List<Reports.RollbackStarted> rollbacks(ProcedureHistory.Recorded recorded) {
        return recorded.related().stream()
                .filter(p -> !p.getId().equals(recorded.id()) && RolloutVariables.PROCESS_KEY.equals(p.getProcessDefinitionKey()))
                .map(p -> new Reports.RollbackStarted(p.getId(), state(p), instant(p.getStartTime()), instant(p.getEndTime())))
                .toList();
    }

    /**
     * What the procedure did, oldest first: what it records of each instance step where it keeps such a record (a
     * scale's slotsDone), else the steps of its diagram the engine's history holds.
     */
    private List<?> steps(ProcedureKind kind, ProcedureHistory.Recorded recorded) {
        if (kind == ProcedureKind.SCALE && parsed(recorded.variable(ScaleVariables.SLOTS_DONE)) instanceof ArrayNode done) {
            List<JsonNode> steps = new ArrayList<>();
            done.forEach(steps::add);
            return steps;
        }
        return activitySteps(recorded.id());
    }

    /**
     * Every task and call of the procedure's own diagram the engine has started, with when it began and ended. A step
     * is named as the operator saw it: a user task by its own name, a step with a {@link StepNames} template by that
     * template with the variables as the activity saw them when it started ({@link ProcedureHistory#valuesAsSeen}),
     * else by its label.
     */
    List<Reports.ActivityStep> activitySteps(String pid) {
        List<HistoricActivityInstance> activities = history.steps(pid);
        Map<String, String> taskNames = history.taskNames(pid);
        Map<String, String> templates = new HashMap<>();
        for (HistoricActivityInstance a : activities) {
            String template = taskNames.getOrDefault(a.getId(),
                    stepNames.template(a.getProcessDefinitionId(), a.getActivityId()).orElse(a.getActivityName()));
            if (template != null) {
                templates.put(a.getId(), template);
            }
        }
        Set<String> names = namesIn(templates.values());
        Map<String, Object> named = history.values(pid, names);
        Set<String> seenNames = new LinkedHashSet<>(names);
        seenNames.add(SLOT);
        Map<String, Map<String, Object>> asSeen = history.valuesAsSeen(pid, activities, seenNames);
        List<Reports.ActivityStep> steps = new ArrayList<>();
        for (HistoricActivityInstance a : activities) {
            String name = templates.get(a.getId());
            Map<String, Object> values = new HashMap<>(named);
            values.putAll(asSeen.getOrDefault(a.getId(), Map.of()));
            steps.add(new Reports.ActivityStep(name == null ? a.getActivityId() : resolved(name, values), a.getActivityId(),
                    instant(a.getStartTime()), instant(a.getEndTime()), a.isCanceled() ? Boolean.TRUE : null,
                    a.getCalledProcessInstanceId(), Objects.toString(asSeen.getOrDefault(a.getId(), Map.of()).get(SLOT), null)));
        }
        return steps;
    }

    /** The variables the steps' names refer to. */
    private static Set<String> namesIn(java.util.Collection<String> templates) {
        Set<String> wanted = new LinkedHashSet<>();
        for (String template : templates) {
            Matcher m = NAME_EXPRESSION.matcher(template);
            while (m.find()) {
                wanted.add(m.group(1));
            }
        }
        return wanted;
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

    /** One row per finished instance step of the rollout and its rollbacks: the stepOutcome each writes, oldest first. */
    private List<JsonNode> rolloutSteps(ProcedureHistory.Recorded recorded) {
        Set<String> rollouts = new LinkedHashSet<>();
        recorded.related().stream().filter(p -> RolloutVariables.PROCESS_KEY.equals(p.getProcessDefinitionKey()))
                .forEach(p -> rollouts.add(p.getId()));
        List<JsonNode> steps = new ArrayList<>();
        for (HistoricVariableInstance v : recorded.variables()) {
            if (!RolloutVariables.STEP_OUTCOME.equals(v.getName()) || !rollouts.contains(v.getProcessInstanceId()) || v.getValue() == null) {
                continue;
            }
            JsonNode step = parsed(v.getValue());
            if (step instanceof ObjectNode object && !recorded.id().equals(v.getProcessInstanceId())) {
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

    /** Beside requestedBy: who approved it (four-eyes: another user, where the set asks for it). */
    private static List<Object> approvedBy(List<Reports.Approval> approvals) {
        return approvals.stream().filter(a -> "approved".equals(a.decision()))
                .map(Reports.Approval::by).filter(Objects::nonNull).distinct().map(Object.class::cast).toList();
    }

    /** Every user task done in the procedure (approvals and halt decisions): what was decided, by whom, when. */
    private List<Reports.Approval> approvals(ProcedureHistory.Recorded recorded) {
        List<String> relatedIds = recorded.relatedIds();
        List<Reports.Approval> approvals = new ArrayList<>();
        for (HistoricTaskInstance task : history.tasksDone(relatedIds)) {
            approvals.add(new Reports.Approval(task.getName(), task.getTaskDefinitionKey(), decision(task, recorded.variables()),
                    completedBy(task, recorded.variables()), instant(task.getEndTime()),
                    taskVariable(task, recorded.variables(), RolloutVariables.DECISION_COMMENT).orElse(null),
                    !relatedIds.isEmpty() && !relatedIds.get(0).equals(task.getProcessInstanceId()) ? task.getProcessInstanceId() : null));
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
        return recorded.or(() -> history.loggedCompletion(task.getId())).orElse(task.getAssignee());
    }

    /** What holds a running procedure now: its open tasks, a pause, and the stage each waiting step reports. */
    private List<String> blockers(ProcedureHistory.Recorded recorded, boolean paused, boolean pauseRequested, Object stage) {
        List<String> blockers = new ArrayList<>();
        List<String> running = recorded.related().stream().filter(p -> p.getEndTime() == null).map(HistoricProcessInstance::getId).toList();
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
        return history.endEventName(procedure);
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

    private static Instant instant(Date date) {
        return date == null ? null : date.toInstant();
    }
}
