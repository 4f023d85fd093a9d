package com.statefulcvm.delegates.drift;

import com.statefulcvm.delegates.procedure.EnvDriftVariables;
import com.statefulcvm.delegates.rollout.RequireChoice;
import com.statefulcvm.delegates.rollout.TaskDecisionRefused;
import com.statefulcvm.delegates.rollout.TaskDecisions;
import com.statefulcvm.fleet.drift.EnvRegistry;
import com.statefulcvm.fleet.drift.SlotEnv;
import org.camunda.bpm.engine.delegate.DelegateTask;
import org.springframework.stereotype.Component;

import java.util.List;

/**
 * The decision on envs changed behind our back: adopt what the slots run as their env, roll the recorded env out again
 * (refused when a slot's recorded env cannot be sent again: no ciphertext kept, or no variable names), or wait and be
 * asked again. Who decided is kept ({@value EnvDriftVariables#DECIDED_BY}), from the authenticated user.
 */
@Component("requireEnvDriftDecision")
public class RequireEnvDriftDecision extends RequireChoice {

    private final EnvRegistry envs;

    public RequireEnvDriftDecision(EnvRegistry envs) {
        super(EnvDriftVariables.ADOPT, EnvDriftVariables.ROLL_BACK, EnvDriftVariables.WAIT);
        this.envs = envs;
    }

    @Override
    public void notify(DelegateTask task) {
        if (EnvDriftVariables.ROLL_BACK.equals(task.getVariable(EnvDriftVariables.DECISION))) {
            List<SlotEnv> drifted = DescribeEnvDrift.drifted(envs, (String) task.getVariable(EnvDriftVariables.REPLICA_SET));
            String problem = RollBackDriftedEnv.cannotRollBack(drifted);
            if (problem != null) {
                throw TaskDecisionRefused.because(task, EnvDriftVariables.DECISION, "decision: rollback " + problem
                        + ": adopt what they run, or wait (or start an env rollout with the values)");
            }
        }
        super.notify(task);
        if (task.getExecution() != null) {
            task.getExecution().getProcessInstance().setVariable(EnvDriftVariables.DECIDED_BY, TaskDecisions.authenticatedUser(task));
        }
    }
}
