package com.statefulcvm.delegates.admission;

import com.statefulcvm.delegates.procedure.RefusalVariables;
import com.statefulcvm.delegates.support.ReplicaSets;
import com.statefulcvm.fleet.PlatformMeasurements;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.RevisionHistory;
import com.statefulcvm.fleet.admission.Refusal;
import com.statefulcvm.fleet.admission.RefusalRegistry;
import com.statefulcvm.fleet.budget.DisruptionBudget;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.camunda.bpm.engine.delegate.JavaDelegate;
import org.springframework.stereotype.Component;

import java.util.List;
import java.util.stream.Collectors;

/**
 * "Look at the instances refused beyond the budget" (decide-attestation-refusals.bpmn): the set's standing refusals,
 * one line each with the cause and the platform the evidence showed, beside the platforms the set pins, for the
 * approver's decision; none left (each admitted or fenced since) ends the procedure.
 */
@Component("describeRefusedInstances")
public class DescribeRefusedInstances implements JavaDelegate {

    private final ReplicaSets replicaSets;
    private final RefusalRegistry refusals;
    private final RevisionHistory revisions;

    public DescribeRefusedInstances(ReplicaSets replicaSets, RefusalRegistry refusals, RevisionHistory revisions) {
        this.replicaSets = replicaSets;
        this.refusals = refusals;
        this.revisions = revisions;
    }

    @Override
    public void execute(DelegateExecution execution) {
        ReplicaSetSpec spec = replicaSets.spec((String) execution.getVariable(RefusalVariables.REPLICA_SET));
        List<Refusal> standing = refusals.refusals(spec.getName());
        execution.setVariable(RefusalVariables.REFUSED_COUNT, standing.size());
        execution.setVariable(RefusalVariables.REFUSED_INSTANCES, describe(spec, standing));
        execution.setVariable(RefusalVariables.DRIFT_DIFF, driftDiff(spec, standing));
        List<PlatformMeasurements> pinned = spec.getAttestation().getPlatforms();
        execution.setVariable(RefusalVariables.PINNED_PLATFORMS, pinned == null || pinned.isEmpty()
                ? "none pinned (any platform is accepted)"
                : pinned.stream().map(p -> (p.getName() == null ? "" : p.getName() + ": ") + "MRTD " + p.getMrtd() + ", RTMR0 "
                        + p.getRtmr0() + ", RTMR1 " + p.getRtmr1() + ", RTMR2 " + p.getRtmr2()).collect(Collectors.joining("\n")));
    }

    /**
     * The diff from the current revision to what the drifted instances run (one diff per distinct compose), for the
     * approver to read before adopting it; null without drift.
     */
    private String driftDiff(ReplicaSetSpec spec, List<Refusal> standing) {
        java.util.Set<String> running = AdoptRunningCompose.runningComposes(standing);
        if (running.isEmpty()) {
            return null;
        }
        String current = revisions.currentRevision(spec.getName()).map(com.statefulcvm.fleet.Revision::dockerCompose).orElse("");
        String label = revisions.currentRevision(spec.getName()).map(r -> "revision " + r.number()).orElse("no revision");
        StringBuilder out = new StringBuilder();
        for (String compose : running) {
            List<String> slots = standing.stream().filter(r -> r.drifted() && com.statefulcvm.fleet.ComposeText.same(r.runningCompose(), compose))
                    .map(r -> spec.slotName(r.ordinal())).toList();
            out.append("from ").append(label).append(" to what ").append(String.join(", ", slots)).append(" run:\n")
                    .append(com.statefulcvm.fleet.ComposeText.diff(current, compose)).append("\n");
        }
        return out.toString().strip();
    }

    static String describe(ReplicaSetSpec spec, List<Refusal> standing) {
        String budget = "disruption budget: " + DisruptionBudget.of(spec).describe() + ", "
                + DisruptionBudget.of(spec).disruptionsAllowed() + " down by our hand at most";
        return standing.stream().map(r -> spec.slotName(r.ordinal()) + " (instance " + r.instanceId() + "), refused at "
                        + r.refusedAt() + " by " + r.refusedBy() + ": " + r.reason()
                        + (r.platform() == null ? "" : "\n  its platform: " + r.platform()))
                .collect(Collectors.joining("\n")) + "\n" + budget;
    }
}
