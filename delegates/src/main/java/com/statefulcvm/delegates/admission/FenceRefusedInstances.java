package com.statefulcvm.delegates.admission;

import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.delegates.procedure.RefusalVariables;
import com.statefulcvm.delegates.support.EffectScope;
import com.statefulcvm.delegates.support.PhalaEffects;
import com.statefulcvm.delegates.support.ReplicaSetObserver;
import com.statefulcvm.delegates.support.ReplicaSets;
import com.statefulcvm.delegates.support.RolloutSettings;
import com.statefulcvm.delegates.support.SlotReader;
import com.statefulcvm.fleet.FencePolicy;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.admission.Fence;
import com.statefulcvm.fleet.admission.FenceRegistry;
import com.statefulcvm.fleet.admission.Refusal;
import com.statefulcvm.fleet.admission.RefusalRegistry;
import com.statefulcvm.fleet.budget.TakeDownLock;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.camunda.bpm.engine.delegate.JavaDelegate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static com.statefulcvm.delegates.procedure.RolloutVariables.HOOK_DEFAULT_RESULT;
import static com.statefulcvm.delegates.procedure.RolloutVariables.HOOK_POLL_INTERVAL;
import static com.statefulcvm.delegates.procedure.RolloutVariables.HOOK_TIMEOUT;
import static com.statefulcvm.delegates.procedure.RolloutVariables.WORKLOAD_TYPE;

/**
 * "Fence every refused instance, beyond the budget" (decide-attestation-refusals.bpmn), the approver's decision: each
 * standing refusal becomes a fence that names the approver, and under on-failure STOP its CVM is asked to stop (the
 * health monitor stops it again while it runs); under DRAIN the diagram drains each one next ({@code fencedSlots}).
 * A slot admitted since the task was created has no refusal any more and is left alone.
 */
@Component("fenceRefusedInstances")
public class FenceRefusedInstances implements JavaDelegate {

    private static final Logger log = LoggerFactory.getLogger(FenceRefusedInstances.class);

    private final ReplicaSets replicaSets;
    private final SlotReader slots;
    private final RefusalRegistry refusals;
    private final FenceRegistry fences;
    private final TakeDownLock lock;
    private final PhalaEffects effects;
    private final ReplicaSetObserver observer;
    private final RolloutSettings settings;
    private final Clock clock;

    public FenceRefusedInstances(ReplicaSets replicaSets, SlotReader slots, RefusalRegistry refusals, FenceRegistry fences,
                                 TakeDownLock lock, PhalaEffects effects, ReplicaSetObserver observer, RolloutSettings settings,
                                 Clock clock) {
        this.replicaSets = replicaSets;
        this.slots = slots;
        this.refusals = refusals;
        this.fences = fences;
        this.lock = lock;
        this.effects = effects;
        this.observer = observer;
        this.settings = settings;
        this.clock = clock;
    }

    @Override
    public void execute(DelegateExecution execution) {
        ReplicaSetSpec spec = replicaSets.spec((String) execution.getVariable(RefusalVariables.REPLICA_SET));
        FencePolicy policy = spec.getAttestation().getOnFailure();
        String approver = String.valueOf(execution.getVariable(RefusalVariables.DECIDED_BY));
        lock.holdUntilTransactionEnds(spec.getName(), "fencing the refused instances, as " + approver + " decided");
        List<String> fenced = new ArrayList<>();
        List<String> report = new ArrayList<>();
        for (Refusal refusal : refusals.refusals(spec.getName())) {
            String slot = spec.slotName(refusal.ordinal());
            Optional<CvmInfo> cvm = slots.find(spec, slot);
            Fence fence = new Fence(spec.getName(), refusal.ordinal(), cvm.map(CvmInfo::instanceId).orElse(refusal.instanceId()),
                    policy, refusal.reason() + "; fenced beyond the disruption budget by " + approver + "'s decision",
                    clock.instant(), "decide-attestation-refusals " + execution.getProcessInstanceId());
            fences.save(fence);
            refusals.lift(spec.getName(), refusal.ordinal());
            observer.recordCondition(spec, slot, fence.condition());
            fenced.add(slot);
            if (policy == FencePolicy.STOP) {
                boolean stopped = FencedStop.ensureStopped(effects, EffectScope.of(execution, slot), slot, cvm);
                report.add(slot + ": fenced, " + (stopped ? "stopped" : "stop asked (the health monitor asks again while it runs)"));
            } else {
                report.add(slot + ": fenced, drained next");
            }
            log.warn("{} fenced beyond the disruption budget, as {} decided: {}", slot, approver, refusal.reason());
        }
        execution.setVariable(RefusalVariables.FENCED_SLOTS, fenced);
        execution.setVariable(RefusalVariables.FENCED_BY_DECISION, report.isEmpty() ? "no refusal stood any more: nothing fenced"
                : String.join("\n", report));
        execution.setVariable(com.statefulcvm.delegates.procedure.AttestationVariables.FENCE_ACTION, policy.name());
        execution.setVariable(WORKLOAD_TYPE, spec.getWorkloadType());
        execution.setVariable(HOOK_TIMEOUT, Duration.ofSeconds(spec.getHooks().getTimeoutSeconds()).toString());
        execution.setVariable(HOOK_POLL_INTERVAL, settings.cvmPollIntervalIso());
        execution.setVariable(HOOK_DEFAULT_RESULT, spec.getHooks().getDefaultResult().name());
    }
}
