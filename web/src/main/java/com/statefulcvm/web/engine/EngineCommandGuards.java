package com.statefulcvm.web.engine;

import com.statefulcvm.web.security.Roles;
import com.statefulcvm.web.security.RoleAuthorizations;
import com.statefulcvm.web.security.EngineCallRefused;
import com.statefulcvm.web.security.CommandFields;
import com.statefulcvm.web.security.ApprovalCompletions;
import jakarta.ws.rs.core.Response;
import org.camunda.bpm.engine.impl.cfg.AbstractProcessEnginePlugin;
import org.camunda.bpm.engine.impl.cfg.ProcessEngineConfigurationImpl;
import org.camunda.bpm.engine.impl.cmd.AbstractAddIdentityLinkCmd;
import org.camunda.bpm.engine.impl.cmd.AddCommentCmd;
import org.camunda.bpm.engine.impl.cmd.ClaimTaskCmd;
import org.camunda.bpm.engine.impl.cmd.CompleteTaskCmd;
import org.camunda.bpm.engine.impl.cmd.CreateAttachmentCmd;
import org.camunda.bpm.engine.impl.cmd.DelegateTaskCmd;
import org.camunda.bpm.engine.impl.cmd.DeleteAttachmentCmd;
import org.camunda.bpm.engine.impl.cmd.DeleteTaskCommentCmd;
import org.camunda.bpm.engine.impl.cmd.UpdateCommentCmd;
import org.camunda.bpm.engine.impl.cmd.HandleTaskBpmnErrorCmd;
import org.camunda.bpm.engine.impl.cmd.HandleTaskEscalationCmd;
import org.camunda.bpm.engine.impl.cmd.StartProcessInstanceAtActivitiesCmd;
import org.camunda.bpm.engine.impl.cmd.SubmitTaskFormCmd;
import org.camunda.bpm.engine.impl.context.Context;
import org.camunda.bpm.engine.impl.interceptor.Command;
import org.camunda.bpm.engine.impl.interceptor.CommandContext;
import org.camunda.bpm.engine.impl.interceptor.CommandInterceptor;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Checks made on engine commands themselves, whichever way they arrive (the engine's REST API, Tasklist and Cockpit,
 * the Java API), before they change anything: an approval's completion takes its form's fields only and respects
 * four-eyes ({@link ApprovalCompletions}), by one of its deciders whoever it was handed to; a claim, delegation or
 * assignment for another user is an admin's; comments and attachments on an approval are its deciders', and nobody's
 * on a finished task; a BPMN error or escalation thrown at an approval, and a process start at
 * chosen activities (REST {@code startInstructions}, with or without {@code skipCustomListeners}, and the restart of an
 * ended instance, which is one), are an admin's. The engine's authorizations do the rest: no role but the admins may
 * modify instances, write variables or delete them (RoleAuthorizations).
 */
@Component
class EngineCommandGuards extends AbstractProcessEnginePlugin {

    private final ObjectProvider<ApprovalCompletions> completions;

    EngineCommandGuards(ObjectProvider<ApprovalCompletions> completions) {
        this.completions = completions;
    }

    @Override
    public void preInit(ProcessEngineConfigurationImpl configuration) {
        configuration.setCustomPostCommandInterceptorsTxRequired(with(configuration.getCustomPostCommandInterceptorsTxRequired()));
        configuration.setCustomPostCommandInterceptorsTxRequiresNew(with(configuration.getCustomPostCommandInterceptorsTxRequiresNew()));
        List<org.camunda.bpm.engine.impl.variable.serializer.TypedValueSerializer> serializers =
                configuration.getCustomPreVariableSerializers() == null ? new ArrayList<>() : new ArrayList<>(configuration.getCustomPreVariableSerializers());
        serializers.add(0, new ObjectTypeAllowList(configuration));
        configuration.setCustomPreVariableSerializers(serializers);
    }

    private List<CommandInterceptor> with(List<CommandInterceptor> existing) {
        List<CommandInterceptor> interceptors = existing == null ? new ArrayList<>() : new ArrayList<>(existing);
        interceptors.add(new Guard());
        return interceptors;
    }

    /** Runs inside the command's context (after the engine's own interceptors), so it can read the task. */
    private final class Guard extends CommandInterceptor {

        @Override
        @SuppressWarnings("unchecked")
        public <T> T execute(Command<T> command) {
            if (command instanceof CompleteTaskCmd) {
                // also ResolveTaskCmd, a delegated task handed back with variables
                completions.getObject().check((String) CommandFields.read(command, "taskId"),
                        (Map<String, Object>) CommandFields.read(command, "variables"));
            } else if (command instanceof SubmitTaskFormCmd) {
                completions.getObject().check((String) CommandFields.read(command, "taskId"),
                        (Map<String, Object>) CommandFields.read(command, "properties"));
            } else if (command instanceof HandleTaskBpmnErrorCmd) {
                completions.getObject().checkNotBypassed((String) CommandFields.read(command, "taskId"), "throw a BPMN error at");
            } else if (command instanceof HandleTaskEscalationCmd) {
                completions.getObject().checkNotBypassed((String) CommandFields.read(command, "taskId"), "escalate");
            } else if (command instanceof ClaimTaskCmd) {
                completions.getObject().checkHandOver((String) CommandFields.read(command, "taskId"),
                        (String) CommandFields.read(command, "userId"), "claim");
            } else if (command instanceof DelegateTaskCmd) {
                completions.getObject().checkHandOver((String) CommandFields.read(command, "taskId"),
                        (String) CommandFields.read(command, "userId"), "delegate");
            } else if (command instanceof AbstractAddIdentityLinkCmd) {
                // setAssignee, setOwner, addCandidateUser, addUserIdentityLink
                completions.getObject().checkHandOver((String) CommandFields.read(command, "taskId"),
                        (String) CommandFields.read(command, "userId"), "assign");
            } else if (command instanceof AddCommentCmd || command instanceof UpdateCommentCmd || command instanceof DeleteTaskCommentCmd) {
                completions.getObject().checkAnnotation((String) CommandFields.read(command, "taskId"), "comment on");
            } else if (command instanceof CreateAttachmentCmd || command instanceof DeleteAttachmentCmd) {
                completions.getObject().checkAnnotation((String) CommandFields.read(command, "taskId"), "attach to");
            } else if (command instanceof StartProcessInstanceAtActivitiesCmd) {
                requireAdmin("start a process at chosen activities (startInstructions, or the restart of an ended instance)");
            }
            return next.execute(command);
        }
    }

    private static void requireAdmin(String what) {
        CommandContext context = Context.getCommandContext();
        String user = context.getAuthenticatedUserId();
        if (user != null && !Roles.isAdmin(context.getProcessEngineConfiguration(), context.getAuthentication())) {
            throw new EngineCallRefused(Response.Status.FORBIDDEN, "user '" + user + "' may not " + what
                    + ": that skips the procedure's start and its checks; only an admin (" + Roles.ADMINS + ") may");
        }
    }
}
