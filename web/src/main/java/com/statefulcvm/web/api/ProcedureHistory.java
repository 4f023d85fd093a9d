package com.statefulcvm.web.api;

import com.statefulcvm.delegates.procedure.RolloutVariables;
import org.camunda.bpm.engine.HistoryService;
import org.camunda.bpm.engine.history.HistoricActivityInstance;
import org.camunda.bpm.engine.history.HistoricDetail;
import org.camunda.bpm.engine.history.HistoricProcessInstance;
import org.camunda.bpm.engine.history.HistoricTaskInstance;
import org.camunda.bpm.engine.history.HistoricVariableInstance;
import org.camunda.bpm.engine.history.HistoricVariableUpdate;
import org.camunda.bpm.engine.history.UserOperationLogEntry;
import org.springframework.stereotype.Component;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * What the engine's history holds of an operator procedure, for its report: the instances it is made of (what it
 * called, the rollbacks a rollout started), their variables, the steps of its diagram, the tasks done in it and who
 * completed them. Reads only; the same for running and finished procedures.
 */
@Component
class ProcedureHistory {

    private static final int MAX_DEPTH = 4;

    /** Activity types that are steps an operator reads as such; gateways, events and sub-process frames are not. */
    private static final Set<String> STEP_TYPES = Set.of("serviceTask", "userTask", "callActivity", "scriptTask", "sendTask",
            "businessRuleTask", "task", "manualTask", "receiveTask");

    private final HistoryService history;

    ProcedureHistory(HistoryService history) {
        this.history = history;
    }

    /** The procedure's instances (itself first) and their variables of the given names. */
    record Recorded(HistoricProcessInstance procedure, List<HistoricProcessInstance> related, List<HistoricVariableInstance> variables) {

        String id() {
            return procedure.getId();
        }

        List<String> relatedIds() {
            return related.stream().map(HistoricProcessInstance::getId).toList();
        }

        /** A variable of the procedure's own scope (not a local one of a step or task). */
        Object variable(String name) {
            return processVariable(variables, id(), name);
        }
    }

    Recorded read(HistoricProcessInstance procedure, String... names) {
        List<HistoricProcessInstance> related = related(procedure);
        List<HistoricVariableInstance> variables = history.createHistoricVariableInstanceQuery()
                .processInstanceIdIn(related.stream().map(HistoricProcessInstance::getId).toArray(String[]::new))
                .variableNameIn(names)
                .unlimitedList();
        return new Recorded(procedure, related, variables);
    }

    /** The variables of these procedures of the given names, in one query (a page of a set's procedure list). */
    List<HistoricVariableInstance> variables(List<String> processInstanceIds, String... names) {
        if (processInstanceIds.isEmpty()) {
            return List.of();
        }
        return history.createHistoricVariableInstanceQuery()
                .processInstanceIdIn(processInstanceIds.toArray(String[]::new))
                .variableNameIn(names)
                .unlimitedList();
    }

    /** A variable of the process instance's own scope (not a local one of a step or task). */
    static Object processVariable(List<HistoricVariableInstance> variables, String pid, String name) {
        return variables.stream()
                .filter(v -> name.equals(v.getName()) && pid.equals(v.getProcessInstanceId()))
                .filter(v -> pid.equals(v.getExecutionId()) && v.getTaskId() == null)
                .map(HistoricVariableInstance::getValue)
                .filter(Objects::nonNull)
                .findFirst()
                .orElse(null);
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

    /** Every task and call of the procedure's own diagram the engine has started, oldest first. */
    List<HistoricActivityInstance> steps(String pid) {
        return history.createHistoricActivityInstanceQuery()
                .processInstanceId(pid)
                .orderByHistoricActivityInstanceStartTime().asc()
                .orderPartiallyByOccurrence().asc()
                .unlimitedList().stream()
                .filter(a -> STEP_TYPES.contains(a.getActivityType()))
                .toList();
    }

    /** The name each user task of the procedure had (by its activity instance): what the operator saw. */
    Map<String, String> taskNames(String pid) {
        Map<String, String> taskNames = new HashMap<>();
        history.createHistoricTaskInstanceQuery().processInstanceId(pid).unlimitedList()
                .forEach(t -> taskNames.put(t.getActivityInstanceId(), t.getName()));
        return taskNames;
    }

    /** The procedure's own values of these variables (its process scope first). */
    Map<String, Object> values(String pid, Set<String> names) {
        Map<String, Object> values = new HashMap<>();
        if (names.isEmpty()) {
            return values;
        }
        for (HistoricVariableInstance v : history.createHistoricVariableInstanceQuery().processInstanceId(pid)
                .variableNameIn(names.toArray(String[]::new)).unlimitedList()) {
            if (v.getValue() != null && (pid.equals(v.getExecutionId()) || !values.containsKey(v.getName()))) {
                values.put(v.getName(), v.getValue());
            }
        }
        return values;
    }

    /**
     * The values the names of these activities refer to, as each activity saw them, by activity instance: the latest
     * update of each variable made before it started, in its own scope or a scope around it. A sequential
     * multi-instance's element variable ({@code slot}) is one variable instance whose value changes per iteration,
     * so its last value would name every iteration's steps; its updates (the engine's full history) name each one.
     */
    Map<String, Map<String, Object>> valuesAsSeen(String pid, List<HistoricActivityInstance> activities, Set<String> names) {
        Map<String, Map<String, Object>> seen = new HashMap<>();
        if (names.isEmpty() || activities.isEmpty()) {
            return seen;
        }
        Map<String, String> parents = new HashMap<>();
        history.createHistoricActivityInstanceQuery().processInstanceId(pid).unlimitedList()
                .forEach(a -> parents.put(a.getId(), a.getParentActivityInstanceId()));
        List<HistoricVariableUpdate> updates = new ArrayList<>();
        for (HistoricDetail detail : history.createHistoricDetailQuery().processInstanceId(pid).variableUpdates()
                .orderByTime().asc().orderPartiallyByOccurrence().asc().unlimitedList()) {
            if (detail instanceof HistoricVariableUpdate update && names.contains(update.getVariableName())) {
                updates.add(update);
            }
        }
        for (HistoricActivityInstance a : activities) {
            // its own scope and those around it, up to the process instance (whose activity instance id is its own id)
            Set<String> scopes = new java.util.HashSet<>(Set.of(pid));
            String scope = a.getId();
            while (scope != null && scopes.add(scope)) {
                scope = parents.get(scope);
            }
            Map<String, Object> values = new HashMap<>();
            for (HistoricVariableUpdate u : updates) {
                if (u.getTime() != null && a.getStartTime() != null && u.getTime().after(a.getStartTime())) {
                    break;
                }
                if (scopes.contains(u.getActivityInstanceId()) && u.getValue() != null) {
                    values.put(u.getVariableName(), u.getValue());
                }
            }
            seen.put(a.getId(), values);
        }
        return seen;
    }

    /** The user tasks done in these instances, in the order they were completed. */
    List<HistoricTaskInstance> tasksDone(List<String> processInstanceIds) {
        List<HistoricTaskInstance> done = new ArrayList<>();
        for (String id : processInstanceIds) {
            done.addAll(history.createHistoricTaskInstanceQuery().processInstanceId(id).finished().unlimitedList());
        }
        done.sort(Comparator.comparing(HistoricTaskInstance::getEndTime, Comparator.nullsLast(Comparator.naturalOrder())));
        return done;
    }

    /** The user the engine logged with the task's completion, if any. */
    Optional<String> loggedCompletion(String taskId) {
        return history.createUserOperationLogQuery()
                .taskId(taskId)
                .operationType(UserOperationLogEntry.OPERATION_TYPE_COMPLETE)
                .unlimitedList().stream()
                .map(UserOperationLogEntry::getUserId)
                .filter(Objects::nonNull)
                .findFirst();
    }

    /** The name of the end event a finished procedure reached (its id when unnamed). */
    String endEventName(HistoricProcessInstance procedure) {
        return history.createHistoricActivityInstanceQuery()
                .processInstanceId(procedure.getId())
                .activityId(procedure.getEndActivityId())
                .unlimitedList().stream()
                .map(HistoricActivityInstance::getActivityName)
                .filter(Objects::nonNull)
                .findFirst()
                .orElse(procedure.getEndActivityId());
    }
}
