package com.statefulcvm.delegates.rollout;

import com.statefulcvm.delegates.procedure.RolloutVariables;
import org.camunda.bpm.engine.delegate.DelegateTask;
import org.camunda.bpm.engine.delegate.TaskListener;
import org.springframework.stereotype.Component;

/**
 * Completing an approval task without a real yes or no must fail loudly: {@code approved} is the boolean true or false
 * (our API, the engine's REST API), or the approval form's explicit choice, the text "true" or "false" (a Camunda Form's
 * radio values are text); anything else, a missing answer included, is refused as a form error
 * ({@link TaskDecisionRefused}) and the task stays open. The answer is kept as a boolean, for the gateways and the
 * report, and recorded with who gave it and when ({@link TaskDecisions}).
 */
@Component("requireApprovalDecision")
public class RequireApprovalDecision implements TaskListener {

    @Override
    public void notify(DelegateTask task) {
        boolean approved = approved(task);
        if (approved) {
            requireAcceptedOverrides(task);
        }
        TaskDecisions.record(task, approved ? "approved" : "rejected");
    }

    /**
     * A rollout whose update policy override removes an approval the fleet file asks for (the plan's
     * overridesWeakenApprovals) is approved only with the approver's own acceptance of that override,
     * {@code acceptOverrides} true (the form's "Accept the overrides"), not on the requester's word alone. Once
     * accepted it stays accepted for the rollout's later approvals.
     */
    static void requireAcceptedOverrides(DelegateTask task) {
        if (!Boolean.TRUE.equals(task.getVariable(RolloutVariables.OVERRIDES_WEAKEN_APPROVALS))) {
            return;
        }
        Object accepted = task.getVariable(RolloutVariables.ACCEPT_OVERRIDES);
        if (Boolean.TRUE.equals(accepted) || "true".equals(accepted)) {
            task.setVariable(RolloutVariables.ACCEPT_OVERRIDES, true);
            return;
        }
        throw TaskDecisionRefused.because(task, RolloutVariables.ACCEPT_OVERRIDES, "this rollout's update policy override "
                + "removes an approval the fleet file asks for (" + String.valueOf(task.getVariable(RolloutVariables.POLICY_OVERRIDES)).strip().replace("\n", "; ")
                + "): approving the rollout needs acceptOverrides true, your own acceptance of that override; or reject the rollout (was "
                + describe(accepted) + ")");
    }

    /** The operator's explicit yes or no, kept as a boolean; refused when it is neither. */
    public static boolean approved(DelegateTask task) {
        Object approved = task.getVariable(RolloutVariables.APPROVED);
        if (approved instanceof Boolean yes) {
            return yes;
        }
        if ("true".equals(approved) || "false".equals(approved)) {
            boolean yes = Boolean.parseBoolean((String) approved);
            task.setVariable(RolloutVariables.APPROVED, yes);
            return yes;
        }
        throw TaskDecisionRefused.because(task, RolloutVariables.APPROVED,
                "approved must be the boolean true or false: choose approve or reject (was " + describe(approved) + ")");
    }

    static String describe(Object value) {
        return value == null ? "missing" : "'" + value + "' of type " + value.getClass().getSimpleName();
    }
}
