package com.statefulcvm.delegates.admission;

import com.statefulcvm.delegates.procedure.AttestationVariables;
import com.statefulcvm.delegates.procedure.FenceOverride;
import com.statefulcvm.delegates.procedure.HealStarter;
import com.statefulcvm.delegates.attestation.AttestInstance;
import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.delegates.support.EffectScope;
import com.statefulcvm.delegates.support.PhalaEffects;
import com.statefulcvm.delegates.support.ReplicaSetObserver;
import com.statefulcvm.delegates.support.ReplicaSets;
import com.statefulcvm.delegates.support.RolloutSettings;
import com.statefulcvm.delegates.support.SlotReader;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.admission.Fence;
import com.statefulcvm.fleet.FencePolicy;
import com.statefulcvm.fleet.admission.FenceRegistry;
import com.statefulcvm.fleet.admission.Refusal;
import com.statefulcvm.fleet.admission.RefusalRegistry;
import com.statefulcvm.fleet.budget.DisruptionBudget;
import com.statefulcvm.delegates.procedure.RefusalDecisionStarter;
import com.statefulcvm.delegates.support.TakeDownCheck;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.camunda.bpm.engine.delegate.JavaDelegate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import java.time.Clock;
import java.time.Duration;
import java.util.Optional;

import static com.statefulcvm.delegates.procedure.RolloutVariables.CVM_POLL_INTERVAL;
import static com.statefulcvm.delegates.procedure.RolloutVariables.HOOK_DEFAULT_RESULT;
import static com.statefulcvm.delegates.procedure.RolloutVariables.HOOK_POLL_INTERVAL;
import static com.statefulcvm.delegates.procedure.RolloutVariables.HOOK_TIMEOUT;
import static com.statefulcvm.delegates.procedure.RolloutVariables.WORKLOAD_TYPE;

/**
 * "Fence the instance: keep it out of the workload" (attest-instance.bpmn, after a failed attestation, whichever
 * procedure asked for it). Records the fence with the verdict's reason, so that the set's status says "fenced:
 * attestation failed: ..." and the health monitor neither probes, counts nor heals the slot until an operator
 * readmits it. The fence is committed in its own transaction before any call that changes something at Phala. Under the set's
 * {@code attestation.on-failure}: STOP asks Phala to stop the CVM here (a hard stop: nothing on an instance we do not
 * trust is to be saved), and the diagram asks again ({@link ConfirmFencedStop}) until Phala shows it stopped; DRAIN
 * sets what the diagram's drain call (run-hook.bpmn, drain-&lt;workloadType&gt;) reads, and nothing rejoins it
 * afterwards. Running the step twice does no harm.
 * <p>
 * A fence takes the slot down, so it is judged by the set's disruption budget like any take-down ({@link TakeDownCheck},
 * under the set's take-down lock): when fencing one more slot would leave fewer serving than the budget needs (every
 * CVM refused at once after a platform change, say), the instance is not fenced but recorded as refused
 * ({@link Refusal}) and kept running unadmitted, and decide-attestation-refusals.bpmn asks an approver.
 */
@Component("fenceInstance")
public class FenceInstance implements JavaDelegate {

    private static final Logger log = LoggerFactory.getLogger(FenceInstance.class);


    private final SlotReader slots;
    private final ReplicaSets replicaSets;
    private final PhalaEffects effects;
    private final FenceRegistry fences;
    private final ReplicaSetObserver observer;
    private final RolloutSettings settings;
    private final RefusalRegistry refusals;
    private final TakeDownCheck takeDowns;
    private final RefusalDecisionStarter decisions;
    private final HealStarter holders;
    private final Clock clock;

    public FenceInstance(SlotReader slots, ReplicaSets replicaSets, PhalaEffects effects, FenceRegistry fences,
                         ReplicaSetObserver observer, RolloutSettings settings, RefusalRegistry refusals,
                         TakeDownCheck takeDowns, RefusalDecisionStarter decisions, HealStarter holders, Clock clock) {
        this.holders = holders;
        this.refusals = refusals;
        this.takeDowns = takeDowns;
        this.decisions = decisions;
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
        String reason = String.valueOf(execution.getVariable(AttestationVariables.ATTESTATION_REASON));
        int ordinal = replicaSets.ordinalOf(spec, slot);
        Optional<Fence> standing = fences.fence(spec.getName(), ordinal);
        if (standing.isEmpty()) {
            // a fence is a take-down like any other: beyond the budget the instance keeps running, unadmitted, and an
            // approver decides; the lock makes refusals arriving together take turns, so they fence one budget's worth
            DisruptionBudget.TakeDown room = takeDowns.judgeHolding(spec, spec.getUpdatePolicy(), slot, "fencing " + slot);
            String takenOver = takenOverSince(execution, spec, ordinal);
            if (takenOver != null) {
                yieldTo(execution, slot, reason, takenOver);
                return;
            }
            if (!room.allowed()) {
                keepRunningUnadmitted(execution, spec, slot, ordinal, cvm, reason, room);
                return;
            }
        }
        // a slot refused because it is fenced already keeps the fence (and the reason) it has
        Fence fence = standing.filter(f -> AttestInstance.FENCED.equals(execution.getVariable(AttestationVariables.ATTESTATION_CODE)))
                .orElseGet(() -> new Fence(spec.getName(), ordinal, cvm.map(CvmInfo::instanceId).orElse(null), policy, reason,
                        clock.instant(), procedureOf(execution)));
        // committed in its own transaction (the registry's), before the stop is asked: a stop that is not taken, or a
        // job that is rolled back, still leaves the slot fenced, and the monitor keeps it out
        fences.save(fence);
        refusals.lift(spec.getName(), ordinal);
        observer.recordCondition(spec, slot, fence.condition());
        execution.setVariable(AttestationVariables.FENCE_ACTION, policy.name());
        if (policy == FencePolicy.DRAIN) {
            execution.setVariable(WORKLOAD_TYPE, spec.getWorkloadType());
            execution.setVariable(HOOK_TIMEOUT, Duration.ofSeconds(spec.getHooks().getTimeoutSeconds()).toString());
            execution.setVariable(HOOK_POLL_INTERVAL, settings.cvmPollIntervalIso());
            execution.setVariable(HOOK_DEFAULT_RESULT, spec.getHooks().getDefaultResult().name());
            log.warn("{} fenced: attestation failed ({}); draining it and leaving it drained", slot, reason);
            return;
        }
        execution.setVariable(CVM_POLL_INTERVAL, settings.cvmPollIntervalIso());
        execution.setVariable(AttestationVariables.FENCE_HOLDS, FencedStop.ensureStopped(effects, EffectScope.of(execution), slot, cvm));
        log.warn("{} fenced: attestation failed ({}); its CVM is stopped", slot, reason);
    }

    /**
     * The refusal is recorded, not enforced: the instance keeps running and gets no admission (the monitor neither
     * counts nor heals it), the set shows AttestationRefused, and the set's decision (fence anyway, or wait) is asked
     * of an approver in Tasklist.
     */
    private void keepRunningUnadmitted(DelegateExecution execution, ReplicaSetSpec spec, String slot, int ordinal,
                                       Optional<CvmInfo> cvm, String reason, DisruptionBudget.TakeDown room) {
        Refusal refusal = new Refusal(spec.getName(), ordinal, cvm.map(CvmInfo::instanceId).orElse(null),
                String.valueOf(execution.getVariable(AttestationVariables.ATTESTATION_CODE)), reason,
                (String) execution.getVariable(AttestationVariables.ATTESTED_PLATFORM), clock.instant(), procedureOf(execution),
                (String) execution.getVariable(AttestationVariables.ATTESTED_COMPOSE));
        refusals.save(refusal);
        observer.recordCondition(spec, slot, refusal.condition());
        execution.setVariable(AttestationVariables.FENCE_ACTION, AttestationVariables.FENCE_HELD);
        execution.setVariable(AttestationVariables.FENCE_HELD_BECAUSE, room.summary());
        String decision = decisions.ensureRunning(spec.getName());
        log.warn("{} refused ({}) but NOT fenced, the disruption budget allows no more: {}; it keeps running unadmitted,"
                + " an approver decides in {}", slot, reason, room.summary(), decision);
    }

    /**
     * For the health monitor's re-attestation only: the procedure that works on the slot now, or null. The monitor
     * asks about a slot no procedure held when it looked; a rollout or heal that took the slot since is changing the
     * instance (its guest agent answers nothing while Phala updates it), so the verdict may be about a CVM in
     * transition, and that procedure attests the slot itself before it serves. Read under the set's take-down lock,
     * which a procedure's take-down takes too: one that takes the slot after this look has not changed it yet, and
     * the verdict stands.
     */
    private String takenOverSince(DelegateExecution execution, ReplicaSetSpec spec, int ordinal) {
        if (!AttestationVariables.ADMIT_PROCESS.equals(FenceOverride.processKeyOf(FenceOverride.procedureOf(execution)))) {
            return null;
        }
        return holders.snapshot(spec.getName()).holderOf(spec, ordinal);
    }

    private static void yieldTo(DelegateExecution execution, String slot, String reason, String holder) {
        execution.setVariable(AttestationVariables.FENCE_ACTION, AttestationVariables.FENCE_YIELDED);
        execution.setVariable(AttestationVariables.FENCE_YIELDED_TO, holder);
        log.info("{} not fenced after the monitor's re-attestation ({}): {} and attests it itself", slot, reason, holder);
    }

    /** Which procedure fenced the slot, for the record: its definition key and instance id. */
    private static String procedureOf(DelegateExecution execution) {
        Object caller = execution.getVariable(AttestationVariables.FENCED_BY);
        if (caller != null) {
            return String.valueOf(caller);
        }
        DelegateExecution top = FenceOverride.procedureOf(execution);
        return FenceOverride.processKeyOf(top) + " " + top.getProcessInstanceId();
    }
}
