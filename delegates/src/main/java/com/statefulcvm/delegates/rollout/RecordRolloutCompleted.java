package com.statefulcvm.delegates.rollout;

import com.statefulcvm.delegates.support.ReplicaSetObserver;
import com.statefulcvm.delegates.support.ReplicaSets;
import com.statefulcvm.fleet.InstanceRecord;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.Revision;
import com.statefulcvm.fleet.RevisionHistory;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.camunda.bpm.engine.delegate.JavaDelegate;
import org.springframework.stereotype.Component;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

import static com.statefulcvm.delegates.procedure.RolloutVariables.*;

/**
 * "Record the rollout complete": the update revision becomes the set's current revision once every slot runs it. A
 * partitioned, targeted or opportunistic rollout leaves the current revision where it was and says how far it got.
 */
@Component("recordRolloutCompleted")
public class RecordRolloutCompleted implements JavaDelegate {

    private final ReplicaSets replicaSets;
    private final ReplicaSetObserver observer;
    private final RevisionHistory revisions;

    public RecordRolloutCompleted(ReplicaSets replicaSets, ReplicaSetObserver observer, RevisionHistory revisions) {
        this.replicaSets = replicaSets;
        this.observer = observer;
        this.revisions = revisions;
    }

    @Override
    public void execute(DelegateExecution execution) {
        ReplicaSetSpec spec = replicaSets.spec((String) execution.getVariable(REPLICA_SET));
        Object number = execution.getVariable(UPDATE_REVISION);
        Optional<Revision> update = number instanceof Number n ? revisions.revision(spec.getName(), n.intValue()) : Optional.empty();
        List<InstanceRecord> records = observer.refresh(spec);
        String hash = update.map(Revision::composeHash).orElse(null);
        long onUpdate = hash == null ? 0 : records.stream().filter(r -> Objects.equals(hash, r.composeHash())).count();
        String outcome;
        if (update.isPresent() && onUpdate == spec.getReplicas()) {
            revisions.setCurrentRevision(spec.getName(), update.get().number());
            outcome = "completed: every instance runs revision " + update.get().number();
        } else {
            outcome = "completed: " + onUpdate + " of " + spec.getReplicas() + " instances run revision "
                    + update.map(r -> Integer.toString(r.number())).orElse("?") + "; the current revision stays "
                    + revisions.currentRevision(spec.getName()).map(r -> Integer.toString(r.number())).orElse("unrecorded");
        }
        execution.setVariable(OUTCOME, outcome);
        execution.setVariable(STAGE, outcome);
    }
}
