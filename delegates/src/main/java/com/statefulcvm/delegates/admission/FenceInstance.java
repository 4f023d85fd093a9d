package com.statefulcvm.delegates.admission;

import com.statefulcvm.connectors.phala.PhalaApiException;
import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.delegates.support.EffectScope;
import com.statefulcvm.delegates.support.PhalaEffects;
import com.statefulcvm.delegates.support.ReplicaSetObserver;
import com.statefulcvm.delegates.support.ReplicaSets;
import com.statefulcvm.delegates.support.RolloutSettings;
import com.statefulcvm.delegates.support.SlotReader;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.admission.Fence;
import com.statefulcvm.fleet.admission.FencePolicy;
import com.statefulcvm.fleet.admission.FenceRegistry;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.camunda.bpm.engine.delegate.JavaDelegate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import java.time.Clock;
import java.time.Duration;
import java.util.Optional;

import static com.statefulcvm.delegates.rollout.RolloutVariables.HOOK_DEFAULT_RESULT;
import static com.statefulcvm.delegates.rollout.RolloutVariables.HOOK_POLL_INTERVAL;
import static com.statefulcvm.delegates.rollout.RolloutVariables.HOOK_TIMEOUT;
import static com.statefulcvm.delegates.rollout.RolloutVariables.WORKLOAD_TYPE;

/**
 * "Fence the instance: keep it out of the workload" (attest-instance.bpmn, after a failed attestation, whichever
 * procedure asked for it). Records the fence with the verdict's reason, so that the set's status says "fenced:
 * attestation failed: ..." and the health monitor neither probes, counts nor heals the slot until an operator
 * readmits it. Under the set's {@code attestation.on-failure}: STOP stops the CVM here (a hard stop: nothing on an
 * instance we do not trust is to be saved); DRAIN sets what the diagram's drain call (run-hook.bpmn,
 * drain-&lt;workloadType&gt;) reads, and nothing rejoins it afterwards. Running the step twice does no harm.
 */
@Component("fenceInstance")
public class FenceInstance implements JavaDelegate {

    private static final Logger log = LoggerFactory.getLogger(FenceInstance.class);

    public static final String FENCE_ACTION = "fenceAction";

    private final SlotReader slots;
    private final ReplicaSets replicaSets;
    private final PhalaEffects effects;
    private final FenceRegistry fences;
    private final ReplicaSetObserver observer;
    private final RolloutSettings settings;
    private final Clock clock;

    public FenceInstance(SlotReader slots, ReplicaSets replicaSets, PhalaEffects effects, FenceRegistry fences,
                         ReplicaSetObserver observer, RolloutSettings settings, Clock clock) {
        this.slots = slots;
        this.replicaSets = replicaSets;
        this.effects = effects;
        this.fences = fences;
        this.observer = observer;
        this.settings = settings;
        this.clock = clock;
    }

    @Override
    public void execute(DelegateExecution execution) {
        ReplicaSetSpec spec = slots.spec(execution);
        String slot = slots.slot(execution);
        FencePolicy policy = spec.getAttestation().getOnFailure();
        Optional<CvmInfo> cvm = slots.find(spec, slot);
        String reason = String.valueOf(execution.getVariable("attestationReason"));
        Fence fence = new Fence(spec.getName(), replicaSets.ordinalOf(spec, slot), cvm.map(CvmInfo::instanceId).orElse(null),
                policy, reason, clock.instant(), procedureOf(execution));
        fences.save(fence);
        observer.recordCondition(spec, slot, fence.condition());
        execution.setVariable(FENCE_ACTION, policy.name());
        if (policy == FencePolicy.DRAIN) {
            execution.setVariable(WORKLOAD_TYPE, spec.getWorkloadType());
            execution.setVariable(HOOK_TIMEOUT, Duration.ofSeconds(spec.getHooks().getTimeoutSeconds()).toString());
            execution.setVariable(HOOK_POLL_INTERVAL, settings.cvmPollIntervalIso());
            execution.setVariable(HOOK_DEFAULT_RESULT, spec.getHooks().getDefaultResult().name());
            log.warn("{} fenced: attestation failed ({}); draining it and leaving it drained", slot, reason);
            return;
        }
        cvm.filter(c -> !"stopped".equals(c.status()) && !"deleting".equals(c.status())).ifPresent(c -> stop(EffectScope.of(execution), slot, c));
        log.warn("{} fenced: attestation failed ({}); its CVM is stopped", slot, reason);
    }

    private void stop(EffectScope scope, String slot, CvmInfo cvm) {
        try {
            effects.stopUntilItHolds(scope, cvm);
        } catch (PhalaApiException e) {
            if (e.status() == 400) {
                return; // it stopped between the read and the request
            }
            // busy (409) or no answer: the engine's retry of this step stops it once the CVM has settled
            throw new IllegalStateException("fencing " + slot + ": the stop of CVM " + cvm.id() + " was not taken: " + e.getMessage(), e);
        }
    }

    /** Which procedure fenced the slot, for the record: its definition key and instance id. */
    private static String procedureOf(DelegateExecution execution) {
        Object caller = execution.getVariable("fencedBy");
        if (caller != null) {
            return String.valueOf(caller);
        }
        DelegateExecution top = execution.getProcessInstance();
        while (top.getSuperExecution() != null) {
            top = top.getSuperExecution().getProcessInstance();
        }
        String key = top.getProcessDefinitionId() == null ? "?" : top.getProcessDefinitionId().split(":")[0];
        return key + " " + top.getProcessInstanceId();
    }
}
