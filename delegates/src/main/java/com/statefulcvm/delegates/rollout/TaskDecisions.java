package com.statefulcvm.delegates.rollout;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.statefulcvm.delegates.support.JsonListVariable;
import org.camunda.bpm.engine.IdentityService;
import org.camunda.bpm.engine.ProcessEngineServices;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.camunda.bpm.engine.delegate.DelegateTask;
import org.camunda.bpm.engine.impl.identity.Authentication;
import org.camunda.bpm.engine.impl.util.ClockUtil;

import static com.statefulcvm.delegates.procedure.RolloutVariables.APPROVED_AT;
import static com.statefulcvm.delegates.procedure.RolloutVariables.APPROVED_BY;
import static com.statefulcvm.delegates.procedure.RolloutVariables.COMMENT;
import static com.statefulcvm.delegates.procedure.RolloutVariables.DECISION_COMMENT;
import static com.statefulcvm.delegates.procedure.RolloutVariables.DECISIONS;

/**
 * Who decided an approval or decision task, when, and the comment they gave: {@code approvedBy}, {@code approvedAt}
 * and {@code decisionComment} local to the task, and one entry in the process instance's {@code decisions} list.
 * The comment is kept per task because the form's {@code comment} field lands in one process variable that the next
 * decision overwrites. The user is the engine's authenticated user of the
 * completing call (REST, Tasklist or our API all authenticate), never a variable the caller could submit.
 */
public final class TaskDecisions {

    static final String UNKNOWN = "unknown";

    private TaskDecisions() {
    }

    public static void record(DelegateTask task, String decision) {
        String by = authenticatedUser(task);
        String at = ClockUtil.getCurrentTime().toInstant().toString();
        task.setVariableLocal(APPROVED_BY, by);
        task.setVariableLocal(APPROVED_AT, at);
        String comment = comment(task);
        if (comment != null) {
            task.setVariableLocal(DECISION_COMMENT, comment);
        }
        // the form's comment lands in one variable of the procedure: moved into this decision's record, so that the
        // next decision does not find it and take it for its own
        if (task.hasVariable(COMMENT)) {
            task.removeVariable(COMMENT);
        }
        DelegateExecution execution = task.getExecution();
        DelegateExecution process = execution == null ? null : execution.getProcessInstance();
        if (process == null) {
            return;
        }
        ObjectNode entry = JsonListVariable.entry();
        entry.put("task", task.getName());
        entry.put("taskDefinitionKey", task.getTaskDefinitionKey());
        entry.put("decision", decision);
        entry.put("by", by);
        entry.put("at", at);
        if (comment != null) {
            entry.put("comment", comment);
        }
        JsonListVariable.append(process, DECISIONS, entry);
    }

    /** The comment submitted with this completion; null when none or blank. */
    private static String comment(DelegateTask task) {
        Object comment = task.getVariable(COMMENT);
        return comment instanceof String text && !text.isBlank() ? text.strip() : null;
    }

    /** The engine's authenticated user of this command; "unknown" when the task was completed without one. */
    public static String authenticatedUser(DelegateTask task) {
        ProcessEngineServices services = task.getProcessEngineServices();
        IdentityService identity = services == null ? null : services.getIdentityService();
        Authentication authentication = identity == null ? null : identity.getCurrentAuthentication();
        return authentication == null || authentication.getUserId() == null ? UNKNOWN : authentication.getUserId();
    }
}
