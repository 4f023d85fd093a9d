package com.statefulcvm.web.security;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.ws.rs.core.Response;
import org.camunda.bpm.engine.BadUserRequestException;
import org.camunda.bpm.engine.impl.context.Context;
import org.camunda.bpm.engine.impl.interceptor.CommandContext;
import org.camunda.bpm.engine.impl.persistence.entity.HistoricTaskInstanceEntity;
import org.camunda.bpm.engine.impl.persistence.entity.TaskEntity;
import org.camunda.bpm.engine.task.IdentityLinkType;
import org.camunda.bpm.engine.variable.value.TypedValue;
import org.springframework.stereotype.Component;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * An approval (every user task with a Camunda Form: approvals, halt and hook decisions) is completed with its form's
 * fields and nothing else, by someone four-eyes allows. A field the approver fills in is accepted as given; a field the
 * form only shows (disabled or read-only) only with the value the task already has, since Tasklist may send it back
 * unchanged. Any other variable (a {@code targetCompose}, a {@code rollbackOf}) is refused before the completion
 * changes anything, on every path: Tasklist, the engine's REST API ({@code complete}, {@code submit-form},
 * {@code resolve}), the Java API. The form is the one the task shows (its {@code camunda:formRef}), read from the
 * deployment, so a form that gains a field accepts it without a change here.
 */
@Component
public class ApprovalCompletions {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final FourEyes fourEyes;

    ApprovalCompletions(FourEyes fourEyes) {
        this.fourEyes = fourEyes;
    }

    /** Before a task is completed (or resolved) with {@code variables}. */
    public void check(String taskId, Map<String, Object> variables) {
        CommandContext context = Context.getCommandContext();
        TaskEntity task = taskId == null ? null : context.getTaskManager().findTaskById(taskId);
        if (task == null) {
            return;
        }
        Optional<Form> form = formOf(context, taskId);
        if (form.isEmpty()) {
            return;
        }
        // who may not work on the task at all hears that first, as the engine would tell them
        context.getProcessEngineConfiguration().getCommandCheckers().forEach(checker -> checker.checkTaskWork(task));
        // an assignee, a delegate or a claimant decides only as one of the task's deciders, whoever handed it to them
        requireDecider(context, task, "decide");
        fourEyes.check(context, task);
        if (variables == null || variables.isEmpty()) {
            return;
        }
        Set<String> refused = new TreeSet<>();
        for (Map.Entry<String, Object> given : variables.entrySet()) {
            String name = given.getKey();
            if (form.get().editable().contains(name)) {
                continue;
            }
            if (form.get().shown().contains(name) && Objects.equals(plain(given.getValue()), task.getVariable(name))) {
                continue;
            }
            refused.add(name);
        }
        if (!refused.isEmpty()) {
            throw new EngineCallRefused(Response.Status.BAD_REQUEST, String.join(", ", refused) + ": not a field of the form '"
                    + form.get().key() + "' of task '" + task.getName() + "' (it takes " + String.join(", ", form.get().editable())
                    + (form.get().shown().isEmpty() ? "" : "; it shows " + String.join(", ", form.get().shown()) + ", accepted unchanged")
                    + "); an approval is decided with its form's fields only");
        }
    }

    /** A BPMN error or an escalation thrown at an approval would end or divert it without its form: admins only. */
    public void checkNotBypassed(String taskId, String how) {
        CommandContext context = Context.getCommandContext();
        TaskEntity task = taskId == null ? null : context.getTaskManager().findTaskById(taskId);
        if (task == null || formOf(context, taskId).isEmpty() || Roles.isAdmin(context.getProcessEngineConfiguration(), context.getAuthentication())) {
            return;
        }
        context.getProcessEngineConfiguration().getCommandCheckers().forEach(checker -> checker.checkTaskWork(task));
        if (context.getAuthenticatedUserId() != null) {
            throw new EngineCallRefused(Response.Status.FORBIDDEN, "user '" + context.getAuthenticatedUserId() + "' may not "
                    + how + " task '" + task.getName() + "': an approval is decided through its form (complete or submit-form); "
                    + "only an admin (" + Roles.ADMINS + ") handles it otherwise");
        }
    }

    /**
     * Before a task is claimed, delegated, assigned or given an owner or candidate: for another user than the caller,
     * an admin's. The engine would let whoever the task is handed to complete it (the assignee gets TASK_WORK on it),
     * so an approver could make a viewer, or a user in no group, the one who approves.
     */
    public void checkHandOver(String taskId, String userId, String how) {
        CommandContext context = Context.getCommandContext();
        String caller = context.getAuthenticatedUserId();
        if (caller == null || userId == null || userId.equals(caller)
                || Roles.isAdmin(context.getProcessEngineConfiguration(), context.getAuthentication())) {
            return;
        }
        TaskEntity task = taskId == null ? null : context.getTaskManager().findTaskById(taskId);
        throw new EngineCallRefused(Response.Status.FORBIDDEN, "user '" + caller + "' may not " + how + " task '"
                + (task == null ? taskId : task.getName()) + ("claim".equals(how) ? "' for" : "' to") + " user '" + userId
                + "': only an admin (" + Roles.ADMINS
                + ") hands a task to another user; claim it for yourself");
    }

    /**
     * Before a comment or an attachment is added to a task, changed or deleted: on an approval (a task with a Camunda
     * Form) only by one of its deciders (an approver, an admin), not by the requester where four-eyes holds (their
     * word would sway the approver); on a finished task by nobody, its record is closed.
     */
    public void checkAnnotation(String taskId, String how) {
        CommandContext context = Context.getCommandContext();
        if (taskId == null || context.getAuthenticatedUserId() == null) {
            return;
        }
        TaskEntity task = context.getTaskManager().findTaskById(taskId);
        if (task == null) {
            HistoricTaskInstanceEntity finished = context.getHistoricTaskInstanceManager().findHistoricTaskInstanceById(taskId);
            if (finished != null) {
                throw new EngineCallRefused(Response.Status.CONFLICT, "task '" + finished.getName() + "' is finished: nobody may "
                        + how + " it any more, its record is closed");
            }
            return;
        }
        if (formOf(context, taskId).isEmpty()) {
            return;
        }
        requireDecider(context, task, how);
        String set = fourEyes.heldAgainstCaller(context, task);
        if (set != null) {
            throw new EngineCallRefused(Response.Status.FORBIDDEN, "user '" + context.getAuthenticatedUserId() + "' may not "
                    + how + " task '" + task.getName() + "': four-eyes, they requested this procedure of replica set '" + set
                    + "', and another approver decides it without their word in the approval");
        }
    }

    /**
     * The caller is one of the task's deciders: a member of one of its candidate groups ({@value Roles#APPROVERS} for
     * every approval of ours; a task without candidate groups: {@value Roles#APPROVERS}), or an admin.
     */
    private static void requireDecider(CommandContext context, TaskEntity task, String how) {
        var caller = context.getAuthentication();
        if (caller == null || caller.getUserId() == null || Roles.isAdmin(context.getProcessEngineConfiguration(), caller)) {
            return;
        }
        Set<String> deciders = new TreeSet<>();
        task.getIdentityLinks().stream()
                .filter(link -> IdentityLinkType.CANDIDATE.equals(link.getType()) && link.getGroupId() != null)
                .forEach(link -> deciders.add(link.getGroupId()));
        if (deciders.isEmpty()) {
            deciders.add(Roles.APPROVERS);
        }
        List<String> groups = caller.getGroupIds() == null ? List.of() : caller.getGroupIds();
        if (groups.stream().noneMatch(deciders::contains)) {
            throw new EngineCallRefused(Response.Status.FORBIDDEN, "user '" + caller.getUserId() + "' may not " + how
                    + " task '" + task.getName() + "': only a member of " + String.join(" or ", deciders)
                    + " may, whoever the task is assigned to");
        }
    }

    private static Object plain(Object value) {
        return value instanceof TypedValue typed ? typed.getValue() : value;
    }

    record Form(String key, Set<String> editable, Set<String> shown) {
    }

    /** The Camunda Form the task shows; empty for a task without one (not one of our approvals). */
    private static Optional<Form> formOf(CommandContext context, String taskId) {
        var task = context.getTaskManager().findTaskById(taskId);
        if (task.getTaskDefinition() == null || task.getTaskDefinition().getCamundaFormDefinitionKey() == null) {
            return Optional.empty();
        }
        String key = task.getTaskDefinition().getCamundaFormDefinitionKey().getExpressionText();
        InputStream deployed;
        try {
            deployed = context.runWithoutAuthorization(
                    () -> context.getProcessEngineConfiguration().getFormService().getDeployedTaskForm(taskId));
        } catch (BadUserRequestException noDeployedForm) {
            // a form reference that resolves to nothing: no field can be accepted
            return Optional.of(new Form(key, Set.of(), Set.of()));
        }
        try (InputStream in = deployed) {
            Set<String> editable = new TreeSet<>();
            Set<String> shown = new TreeSet<>();
            collect(JSON.readTree(in), editable, shown);
            shown.removeAll(editable);
            return Optional.of(new Form(key, editable, new LinkedHashSet<>(shown)));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the form '" + key + "' of task " + taskId, e);
        }
    }

    private static void collect(JsonNode node, Set<String> editable, Set<String> shown) {
        for (JsonNode component : node.path("components")) {
            JsonNode key = component.get("key");
            if (key != null && key.isTextual()) {
                boolean display = component.path("disabled").asBoolean(false) || isSet(component.get("readonly"));
                (display ? shown : editable).add(key.asText());
            }
            collect(component, editable, shown);
        }
    }

    /** form-js's readonly: true, or an expression (anything but false). */
    private static boolean isSet(JsonNode readonly) {
        return readonly != null && !readonly.isNull() && !(readonly.isBoolean() && !readonly.asBoolean())
                && !(readonly.isTextual() && (readonly.asText().isBlank() || "false".equals(readonly.asText())));
    }
}
