package com.statefulcvm.delegates.lightsout;

import com.statefulcvm.delegates.procedure.RolloutVariables;
import com.statefulcvm.delegates.rollout.RequireApprovalDecision;
import com.statefulcvm.delegates.rollout.TaskDecisionRefused;
import com.statefulcvm.delegates.rollout.TaskDecisions;
import com.statefulcvm.fleet.lightsout.SequenceNumbers;
import org.camunda.bpm.engine.delegate.DelegateTask;
import org.camunda.bpm.engine.delegate.TaskListener;
import org.springframework.stereotype.Component;

import java.util.ArrayList;

import static com.statefulcvm.delegates.procedure.LightsOutVariables.*;

/**
 * The operator's decision on the seed (form approve-lights-out): {@code approved} true or false, and when approved a
 * {@code seed} that is a slot of the set. A seed other than the one the numbers chose is an override: it is recorded
 * as such with who made it ({@code decisions}), and the other slots follow it. The form is refused, naming the field,
 * for anything else; the task stays open.
 */
@Component("requireLightsOutSeed")
public class RequireLightsOutSeed implements TaskListener {

    @Override
    public void notify(DelegateTask task) {
        boolean yes = RequireApprovalDecision.approved(task);
        if (!yes) {
            TaskDecisions.record(task, "rejected");
            return;
        }
        SequenceNumbers numbers = ChooseLightsOutSeed.numbers(task.getExecution());
        Object seed = task.getVariable(SEED);
        if (!(seed instanceof String slot) || !numbers.slots().contains(slot.strip())) {
            throw TaskDecisionRefused.because(task, SEED, "seed must be one of " + String.join(", ", numbers.slots())
                    + " (was " + (seed == null ? "missing" : "'" + seed + "'") + ")");
        }
        if (!numbers.seedable(slot.strip())) {
            throw TaskDecisionRefused.because(task, SEED, "seed " + slot.strip() + " is " + numbers.fenced().get(slot.strip())
                    + ": the recovery did not start it; readmit it, or start a recovery with readmitFenced");
        }
        Object empty = task.getVariable(EMPTY_STATE);
        Object comment = task.getVariable(RolloutVariables.COMMENT);
        if (empty != null && (!(comment instanceof String why) || why.isBlank())) {
            throw TaskDecisionRefused.because(task, RolloutVariables.COMMENT, "every replica reports an empty state: approving"
                    + " starts the set from no data, an override that needs its reason in the comment");
        }
        String chosen = slot.strip();
        boolean overridden = !chosen.equals(task.getVariable(CHOSEN_SEED));
        task.getExecution().setVariable(SEED, chosen);
        task.getExecution().setVariable(SEED_OVERRIDDEN, overridden);
        task.getExecution().setVariable(FOLLOWERS, new ArrayList<>(numbers.followersOf(chosen)));
        String decided = overridden ? "approved with seed " + chosen + " instead of " + task.getVariable(CHOSEN_SEED) : "approved seed " + chosen;
        TaskDecisions.record(task, empty != null ? decided + ", overriding the refusal of an empty recovery" : decided);
    }
}
