package com.statefulcvm.delegates.drift;

import com.statefulcvm.delegates.procedure.EnvDriftVariables;
import com.statefulcvm.delegates.procedure.RolloutStarter;
import com.statefulcvm.delegates.procedure.RolloutVariables;
import com.statefulcvm.fleet.Revision;
import com.statefulcvm.fleet.RevisionHistory;
import com.statefulcvm.fleet.Slots;
import com.statefulcvm.fleet.drift.EnvRegistry;
import com.statefulcvm.fleet.drift.SlotEnv;
import org.camunda.bpm.engine.RuntimeService;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.camunda.bpm.engine.delegate.JavaDelegate;
import org.springframework.stereotype.Component;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * "Roll the recorded env out again" (decide-env-drift.bpmn): starts rollout.bpmn on the drifted slots with the set's
 * current compose, each slot sent its own recorded ciphertext again ({@value RolloutVariables#ROLLBACK_RECORDED_ENV}),
 * requested by the approver: the rollout drains, updates, attests and gates each as any rollout does, within the
 * budget, after its own approval. While another rollout of the set runs, nothing starts and the decision is asked again.
 */
@Component("rollBackDriftedEnv")
public class RollBackDriftedEnv implements JavaDelegate {

    private final EnvRegistry envs;
    private final RevisionHistory revisions;
    private final RolloutStarter rollouts;
    private final RuntimeService runtime;

    public RollBackDriftedEnv(EnvRegistry envs, RevisionHistory revisions, RolloutStarter rollouts, RuntimeService runtime) {
        this.envs = envs;
        this.revisions = revisions;
        this.rollouts = rollouts;
        this.runtime = runtime;
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
        Optional<Revision> current = revisions.currentRevision(set);
        if (problem == null && current.isEmpty()) {
            problem = "needs the set's current revision; it has none";
        }
        if (problem == null && runtime.createProcessInstanceQuery().processDefinitionKey(RolloutVariables.PROCESS_KEY)
                .processInstanceBusinessKey(set).active().count() > 0) {
            problem = "waits for the rollout of " + set + " that runs";
        }
        if (problem != null) {
            execution.setVariable(EnvDriftVariables.OUTCOME, "nothing rolled back: the rollback " + problem);
            return;
        }
        Set<Integer> ordinals = drifted.stream().map(SlotEnv::ordinal).collect(Collectors.toSet());
        String id = rollouts.instantiation(set, new RolloutStarter.Start(current.get().dockerCompose(), null, ordinals, null), by)
                .setVariable(RolloutVariables.ROLLBACK_RECORDED_ENV, true).execute().getId();
        execution.setVariable(EnvDriftVariables.ROLLBACK_ROLLOUT, id);
        execution.setVariable(EnvDriftVariables.OUTCOME, "rollout " + id + " sends the recorded env of " + drifted.stream()
                .map(s -> Slots.name(set, s.ordinal())).collect(Collectors.joining(", ")) + " again: it asks for its approval in Tasklist");
    }
}
