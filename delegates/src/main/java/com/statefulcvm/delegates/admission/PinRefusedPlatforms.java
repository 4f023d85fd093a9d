package com.statefulcvm.delegates.admission;

import com.statefulcvm.delegates.procedure.RefusalVariables;
import com.statefulcvm.delegates.support.ReplicaSets;
import com.statefulcvm.fleet.PlatformMeasurements;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.admission.PinnedPlatform;
import com.statefulcvm.fleet.admission.PinnedPlatforms;
import com.statefulcvm.fleet.admission.Refusal;
import com.statefulcvm.fleet.admission.RefusalRegistry;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.camunda.bpm.engine.delegate.JavaDelegate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * "Pin the platforms the refused instances showed" (decide-attestation-refusals.bpmn), the approver's decision: each
 * platform (MRTD, RTMR0-2) a standing refusal's evidence showed is accepted for the set from now on, beside the fleet
 * file's, naming the approver; those refusals are forgotten, so that the health monitor attests their instances again
 * in its next round (admitted if the platform was all that was wrong, refused and asked about again if not). A refusal
 * whose evidence showed no platform stands.
 */
@Component("pinRefusedPlatforms")
public class PinRefusedPlatforms implements JavaDelegate {

    private static final Logger log = LoggerFactory.getLogger(PinRefusedPlatforms.class);

    private final ReplicaSets replicaSets;
    private final RefusalRegistry refusals;
    private final PinnedPlatforms pins;
    private final Clock clock;

    public PinRefusedPlatforms(ReplicaSets replicaSets, RefusalRegistry refusals, PinnedPlatforms pins, Clock clock) {
        this.replicaSets = replicaSets;
        this.refusals = refusals;
        this.pins = pins;
        this.clock = clock;
    }

    @Override
    public void execute(DelegateExecution execution) {
        ReplicaSetSpec spec = replicaSets.spec((String) execution.getVariable(RefusalVariables.REPLICA_SET));
        String approver = String.valueOf(execution.getVariable(RefusalVariables.DECIDED_BY));
        List<String> report = new ArrayList<>();
        for (Refusal refusal : refusals.refusals(spec.getName())) {
            String slot = spec.slotName(refusal.ordinal());
            Optional<PlatformMeasurements> platform = PlatformMeasurements.parseFull(refusal.platform(), "pinned after " + slot + "'s refusal");
            if (platform.isEmpty()) {
                report.add(slot + ": its evidence showed no platform; still refused (" + refusal.reason() + ")");
                continue;
            }
            pins.pin(new PinnedPlatform(spec.getName(), platform.get(), approver, clock.instant(), slot + ": " + refusal.reason()));
            refusals.lift(spec.getName(), refusal.ordinal());
            report.add(slot + ": its platform (" + platform.get().describe() + ") pinned by " + approver + "; attested again next round");
            log.warn("{}: platform {} pinned for '{}' by {}'s decision after its refusal ({})", slot, platform.get().full(),
                    spec.getName(), approver, refusal.reason());
        }
        execution.setVariable(RefusalVariables.PINNED_BY_DECISION, report.isEmpty() ? "no refusal stood any more: nothing pinned"
                : String.join("\n", report));
    }

    /** True when a standing refusal of the set showed a platform that pinning would accept. */
    public static boolean anythingToPin(List<Refusal> standing) {
        return standing.stream().anyMatch(r -> PlatformMeasurements.parseFull(r.platform(), null).isPresent());
    }
}
