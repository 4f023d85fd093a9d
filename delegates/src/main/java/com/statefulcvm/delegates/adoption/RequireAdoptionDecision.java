package com.statefulcvm.delegates.adoption;

import com.statefulcvm.delegates.procedure.AdoptionVariables;
import com.statefulcvm.delegates.rollout.RequireApprovalDecision;
import com.statefulcvm.delegates.rollout.TaskDecisionRefused;
import com.statefulcvm.delegates.rollout.TaskDecisions;
import org.camunda.bpm.engine.delegate.DelegateTask;
import org.camunda.bpm.engine.delegate.TaskListener;
import org.springframework.stereotype.Component;

import java.util.Collection;

/**
 * An adoption is approved with a real yes or no, and, when any slot's evidence would be refused, only with the
 * approver's own acceptance that those slots are kept running unadmitted ({@code acceptRefused} true): the approval
 * never stops them, and never takes them in silently either.
 */
@Component("requireAdoptionDecision")
public class RequireAdoptionDecision implements TaskListener {

    @Override
    public void notify(DelegateTask task) {
        boolean approved = RequireApprovalDecision.approved(task);
        if (approved && task.getVariable(AdoptionVariables.REFUSED_SLOTS) instanceof Collection<?> refused && !refused.isEmpty()) {
            Object accepted = task.getVariable(AdoptionVariables.ACCEPT_REFUSED);
            if (!Boolean.TRUE.equals(accepted) && !"true".equals(accepted)) {
                throw TaskDecisionRefused.because(task, AdoptionVariables.ACCEPT_REFUSED, "the evidence of " + refused.size()
                        + " slot(s) would be refused (" + String.join(", ", refused.stream().map(String::valueOf).toList())
                        + "): approving needs acceptRefused true, your acceptance that they are kept running, unadmitted, for an"
                        + " operator to handle; or reject the adoption");
            }
            task.setVariable(AdoptionVariables.ACCEPT_REFUSED, true);
        }
        TaskDecisions.record(task, approved ? "approved" : "rejected");
        var process = task.getExecution().getProcessInstance();
        String by = TaskDecisions.authenticatedUser(task);
        process.setVariable(AdoptionVariables.DECIDED_BY, by);
        if (!approved) {
            process.setVariable(AdoptionVariables.ADOPTION_RESULT, "rejected");
            process.setVariable(AdoptionVariables.OUTCOME, "adoption rejected by " + by + ": the set stays observed only");
        }
    }
}
