package com.statefulcvm.web.security;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.ws.rs.core.Response;
import org.camunda.bpm.engine.BadUserRequestException;
import org.camunda.bpm.engine.impl.context.Context;
import org.camunda.bpm.engine.impl.interceptor.CommandContext;
import org.camunda.bpm.engine.impl.persistence.entity.TaskEntity;
import org.camunda.bpm.engine.variable.value.TypedValue;
import org.springframework.stereotype.Component;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.LinkedHashSet;
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
