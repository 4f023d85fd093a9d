package com.statefulcvm.delegates.drift;

import com.statefulcvm.delegates.procedure.DriftRollbacks;
import com.statefulcvm.delegates.procedure.EnvDriftVariables;
import com.statefulcvm.fleet.Slots;
import com.statefulcvm.fleet.drift.EnvRegistry;
import com.statefulcvm.fleet.drift.SlotEnv;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.camunda.bpm.engine.delegate.JavaDelegate;
import org.springframework.stereotype.Component;

import java.util.List;
import java.util.stream.Collectors;

/**
 * "Roll the recorded env out again" (decide-env-drift.bpmn): starts rollout.bpmn on the drifted slots with the set's
 * current compose, each slot sent its own recorded ciphertext again ({@code rollbackRecordedEnv}, through {@link DriftRollbacks}),
 * requested by the approver: the rollout drains, updates, attests and gates each as any rollout does, within the
 * budget, after its own approval. While another rollout of the set runs, nothing starts and the decision is asked again.
 */
@Component("rollBackDriftedEnv")
public class RollBackDriftedEnv implements JavaDelegate {

    private final EnvRegistry envs;
    private final DriftRollbacks rollbacks;

    public RollBackDriftedEnv(EnvRegistry envs, DriftRollbacks rollbacks) {
        this.envs = envs;
        this.rollbacks = rollbacks;
    }

    /** Why the drifted slots' recorded env cannot be sent again; null when it can. */
    public static String cannotRollBack(List<SlotEnv> drifted) {
        if (drifted.isEmpty()) {
            return "needs a drifted slot; none is";
        }
        List<String> unsendable = drifted.stream().filter(s -> s.known().encryptedEnv() == null || s.known().keys().isEmpty())
                .map(s -> Slots.name(s.replicaSet(), s.ordinal())).toList();
        return unsendable.isEmpty() ? null : "cannot send the recorded env of " + String.join(", ", unsendable)
                + " again (no ciphertext kept, or no variable names)";
    }

    @Override
    public void execute(DelegateExecution execution) {
        String set = (String) execution.getVariable(EnvDriftVariables.REPLICA_SET);
        String by = String.valueOf(execution.getVariable(EnvDriftVariables.DECIDED_BY));
        execution.setVariable(EnvDriftVariables.ROLLBACK_ROLLOUT, null);
        List<SlotEnv> drifted = DescribeEnvDrift.drifted(envs, set);
        String problem = cannotRollBack(drifted);
        DriftRollbacks.Started started = problem != null ? new DriftRollbacks.Started(null, problem)
                : rollbacks.start(set, drifted.stream().map(SlotEnv::ordinal).collect(Collectors.toSet()), by, true);
        String slots = drifted.stream().map(s -> Slots.name(set, s.ordinal())).collect(Collectors.joining(", "));
        execution.setVariable(EnvDriftVariables.ROLLBACK_ROLLOUT, started.rolloutId());
        execution.setVariable(EnvDriftVariables.OUTCOME, started.rolloutId() == null ? "nothing rolled back: the rollback " + started.problem()
                : "rollout " + started.rolloutId() + " sends the recorded env of " + slots + " again: it asks for its approval in Tasklist");
    }
}
