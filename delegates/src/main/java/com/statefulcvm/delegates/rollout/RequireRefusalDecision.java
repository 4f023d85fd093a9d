package com.statefulcvm.delegates.rollout;

import com.statefulcvm.delegates.admission.AdoptRunningCompose;
import com.statefulcvm.delegates.admission.PinRefusedPlatforms;
import com.statefulcvm.delegates.procedure.RefusalVariables;
import com.statefulcvm.fleet.admission.RefusalRegistry;
import org.camunda.bpm.engine.delegate.DelegateTask;
import org.springframework.stereotype.Component;

/**
 * The decision on instances refused beyond the disruption budget: fence them all anyway, pin the platform their evidence
 * showed (refused when none of the standing refusals showed one), adopt the compose they run as a revision (refused
 * unless they run exactly one that was changed behind our back), roll the set's current revision out to the drifted ones
 * again (refused unless some drifted), or wait and be asked again. Who decided is kept for
 * the fences and pins it makes ({@value RefusalVariables#DECIDED_BY}), from the authenticated user.
 */
@Component("requireRefusalDecision")
public class RequireRefusalDecision extends RequireChoice {

    private final RefusalRegistry refusals;

    public RequireRefusalDecision(RefusalRegistry refusals) {
        super(RefusalVariables.FENCE, RefusalVariables.PIN, RefusalVariables.ADOPT, RefusalVariables.ROLL_BACK, RefusalVariables.WAIT);
        this.refusals = refusals;
    }

    @Override
    public void notify(DelegateTask task) {
        if (RefusalVariables.PIN.equals(task.getVariable(RefusalVariables.DECISION))
                && !PinRefusedPlatforms.anythingToPin(refusals.refusals((String) task.getVariable(RefusalVariables.REPLICA_SET)))) {
            throw TaskDecisionRefused.because(task, RefusalVariables.DECISION, "decision: pin needs a refused instance whose"
                    + " evidence showed a platform (MRTD, RTMR0-2); these were refused for other causes: fence them, or wait");
        }
        if (RefusalVariables.ROLL_BACK.equals(task.getVariable(RefusalVariables.DECISION))
                && AdoptRunningCompose.runningComposes(refusals.refusals((String) task.getVariable(RefusalVariables.REPLICA_SET))).isEmpty()) {
            throw TaskDecisionRefused.because(task, RefusalVariables.DECISION, "decision: rollback needs a refused instance that runs"
                    + " a compose changed behind our back; none does: fence them, pin the platform they showed, or wait");
        }
        if (RefusalVariables.ADOPT.equals(task.getVariable(RefusalVariables.DECISION))) {
            int composes = AdoptRunningCompose.runningComposes(refusals.refusals((String) task.getVariable(RefusalVariables.REPLICA_SET))).size();
            if (composes != 1) {
                throw TaskDecisionRefused.because(task, RefusalVariables.DECISION, composes == 0
                        ? "decision: adopt needs a refused instance that runs a compose changed behind our back; none does"
                        : "decision: adopt needs one compose, and the refused instances run " + composes + " different ones:"
                        + " fence them, or wait (or roll one out by hand)");
            }
        }
        super.notify(task);
        if (task.getExecution() != null) {
            task.getExecution().getProcessInstance().setVariable(RefusalVariables.DECIDED_BY, TaskDecisions.authenticatedUser(task));
        }
    }
}
