package com.statefulcvm.delegates.admission;

import com.statefulcvm.delegates.procedure.DriftRollbacks;
import com.statefulcvm.delegates.procedure.RefusalVariables;
import com.statefulcvm.fleet.Slots;
import com.statefulcvm.fleet.admission.Refusal;
import com.statefulcvm.fleet.admission.RefusalRegistry;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.camunda.bpm.engine.delegate.JavaDelegate;
import org.springframework.stereotype.Component;

import java.util.List;
import java.util.stream.Collectors;

/**
 * "Roll the recorded revision out to them again" (decide-attestation-refusals.bpmn), the approver's decision after a
 * compose was changed behind our back: rollout.bpmn on the drifted instances alone, back to the set's current revision
 * ({@link DriftRollbacks}). Their refusals stand until the rollout's attestation admits them on that revision; other
 * refusals are left to the decision. While another rollout runs, nothing starts and the approver is asked again.
 */
@Component("rollBackDriftedCompose")
public class RollBackDriftedCompose implements JavaDelegate {

    private final RefusalRegistry refusals;
    private final DriftRollbacks rollbacks;

    public RollBackDriftedCompose(RefusalRegistry refusals, DriftRollbacks rollbacks) {
        this.refusals = refusals;
        this.rollbacks = rollbacks;
    }

    @Override
    public void execute(DelegateExecution execution) {
        String set = (String) execution.getVariable(RefusalVariables.REPLICA_SET);
        String by = String.valueOf(execution.getVariable(RefusalVariables.DECIDED_BY));
        List<Refusal> drifted = refusals.refusals(set).stream().filter(Refusal::drifted).toList();
        DriftRollbacks.Started started = drifted.isEmpty() ? new DriftRollbacks.Started(null, "needs an instance that drifted; none does")
                : rollbacks.start(set, drifted.stream().map(Refusal::ordinal).collect(Collectors.toSet()), by, false);
        String slots = drifted.stream().map(r -> Slots.name(set, r.ordinal())).collect(Collectors.joining(", "));
        execution.setVariable(RefusalVariables.ROLLBACK_ROLLOUT, started.rolloutId());
        execution.setVariable(RefusalVariables.ROLLED_BACK_BY_DECISION, started.rolloutId() == null
                ? "nothing rolled back: the rollback " + started.problem()
                : "rollout " + started.rolloutId() + " rolls the current revision out to " + slots + " again: it asks for its approval in Tasklist");
    }
}
