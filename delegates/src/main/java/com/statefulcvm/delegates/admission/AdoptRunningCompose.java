package com.statefulcvm.delegates.admission;

import com.statefulcvm.delegates.procedure.RefusalVariables;
import com.statefulcvm.delegates.support.ReplicaSets;
import com.statefulcvm.fleet.ComposeText;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.Revision;
import com.statefulcvm.fleet.RevisionHistory;
import com.statefulcvm.fleet.admission.Refusal;
import com.statefulcvm.fleet.admission.RefusalRegistry;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.camunda.bpm.engine.delegate.JavaDelegate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * "Record the compose they run as the set's revision" (decide-attestation-refusals.bpmn), the approver's decision after a
 * compose was changed behind our back (Terraform, the CLI, the dashboard): the one compose the drifted instances run, as
 * their measured compose hash proves, becomes a new revision, current and update, created by the approver, in the
 * set's history; their refusals are forgotten, so that the health monitor attests them again in its next round and
 * admits them. A fenced one comes back with its readmit. Refusals for other causes stand.
 */
@Component("adoptRunningCompose")
public class AdoptRunningCompose implements JavaDelegate {

    private static final Logger log = LoggerFactory.getLogger(AdoptRunningCompose.class);

    private final ReplicaSets replicaSets;
    private final RefusalRegistry refusals;
    private final RevisionHistory revisions;

    public AdoptRunningCompose(ReplicaSets replicaSets, RefusalRegistry refusals, RevisionHistory revisions) {
        this.replicaSets = replicaSets;
        this.refusals = refusals;
        this.revisions = revisions;
    }

    @Override
    public void execute(DelegateExecution execution) {
        ReplicaSetSpec spec = replicaSets.spec((String) execution.getVariable(RefusalVariables.REPLICA_SET));
        String approver = String.valueOf(execution.getVariable(RefusalVariables.DECIDED_BY));
        List<Refusal> drifted = refusals.refusals(spec.getName()).stream().filter(Refusal::drifted).toList();
        Set<String> composes = runningComposes(drifted);
        if (composes.size() != 1) {
            // decided on one compose; another drift arrived meanwhile: adopt nothing, ask again
            execution.setVariable(RefusalVariables.ADOPTED_REVISION, null);
            execution.setVariable(RefusalVariables.ADOPTED_BY_DECISION, composes.isEmpty() ? "no drifted instance any more: nothing adopted"
                    : "the drifted instances run " + composes.size() + " different composes now: nothing adopted");
            return;
        }
        List<String> slots = new ArrayList<>();
        drifted.forEach(r -> slots.add(spec.slotName(r.ordinal())));
        Revision revision = revisions.record(spec.getName(), drifted.get(0).runningCompose(), approver,
                "adopted: the compose " + String.join(", ", slots) + " run, changed behind the orchestrator's back");
        revisions.setCurrentRevision(spec.getName(), revision.number());
        revisions.setUpdateRevision(spec.getName(), revision.number());
        drifted.forEach(r -> refusals.lift(spec.getName(), r.ordinal()));
        execution.setVariable(RefusalVariables.ADOPTED_REVISION, revision.number());
        execution.setVariable(RefusalVariables.ADOPTED_BY_DECISION, "revision " + revision.number() + " of " + spec.getName()
                + " is the compose " + String.join(", ", slots) + " run, adopted by " + approver + "; attested again next round");
        log.warn("'{}': the compose {} run, changed behind our back, adopted as revision {} by {}'s decision", spec.getName(),
                slots, revision.number(), approver);
    }

    /** The distinct composes drifted instances run, compared as revisions compare them (line ends, trailing space). */
    public static Set<String> runningComposes(List<Refusal> standing) {
        Set<String> out = new LinkedHashSet<>();
        standing.stream().filter(Refusal::drifted).map(r -> ComposeText.normalize(r.runningCompose())).forEach(out::add);
        return out;
    }
}
