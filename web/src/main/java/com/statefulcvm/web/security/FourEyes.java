package com.statefulcvm.web.security;

import com.statefulcvm.delegates.procedure.RolloutVariables;
import com.statefulcvm.delegates.support.ReplicaSets;
import jakarta.ws.rs.core.Response;
import org.camunda.bpm.engine.impl.interceptor.CommandContext;
import org.camunda.bpm.engine.impl.persistence.entity.ExecutionEntity;
import org.camunda.bpm.engine.impl.persistence.entity.HistoricProcessInstanceEntity;
import org.camunda.bpm.engine.impl.persistence.entity.TaskEntity;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;

import java.util.Objects;

/**
 * Separation of duties per replica set ({@code approvals.four-eyes}, on unless the set or the fleet turns it off): the
 * user who requested a procedure may not decide its approvals. The requester is the engine's own record of who
 * started the procedure (the start user of its root instance, so the approvals of a hook or of an automatic rollback
 * belong to the request that led to them); only a procedure the application started itself (the health monitor's
 * heal) falls back to its {@code requestedBy}. A completion without an authenticated user comes from the
 * application's own code and is not asked.
 */
@Component
class FourEyes {

    private final ObjectProvider<ReplicaSets> replicaSets;

    FourEyes(ObjectProvider<ReplicaSets> replicaSets) {
        this.replicaSets = replicaSets;
    }

    void check(CommandContext context, TaskEntity task) {
        String approver = context.getAuthenticatedUserId();
        String set = heldAgainstCaller(context, task);
        if (set != null) {
            throw new EngineCallRefused(Response.Status.FORBIDDEN, "four-eyes: user '" + approver + "' requested this "
                    + task.getExecution().getProcessInstance().getProcessDefinition().getKey() + " of replica set '" + set
                    + "' and may not decide its approvals (task '" + task.getName() + "'); another member of '"
                    + Roles.APPROVERS + "' decides (the set's approvals.four-eyes)");
        }
    }

    /**
     * The replica set whose four-eyes keeps the authenticated caller from the task (the caller requested its
     * procedure and the set asks for four-eyes); null when it does not, or without an authenticated caller.
     */
    String heldAgainstCaller(CommandContext context, TaskEntity task) {
        String caller = context.getAuthenticatedUserId();
        ExecutionEntity execution = task.getExecution();
        if (caller == null || execution == null) {
            return null;
        }
        Object set = execution.getVariable(RolloutVariables.REPLICA_SET);
        ReplicaSets sets = replicaSets.getObject();
        if (!(set instanceof String name) || !sets.exists(name) || !sets.spec(name).getApprovals().requiresFourEyes()) {
            return null;
        }
        return Objects.equals(caller, requester(context, execution)) ? name : null;
    }

    /** Who requested the procedure the task belongs to: its root instance's start user, else its requestedBy. */
    static String requester(CommandContext context, ExecutionEntity execution) {
        String rootId = execution.getRootProcessInstanceId();
        HistoricProcessInstanceEntity root = context.getHistoricProcessInstanceManager().findHistoricProcessInstance(rootId);
        if (root != null && root.getStartUserId() != null) {
            return root.getStartUserId();
        }
        ExecutionEntity rootExecution = context.getExecutionManager().findExecutionById(rootId);
        Object requestedBy = rootExecution == null ? null : rootExecution.getVariable(RolloutVariables.REQUESTED_BY);
        return requestedBy == null ? null : requestedBy.toString();
    }
}
