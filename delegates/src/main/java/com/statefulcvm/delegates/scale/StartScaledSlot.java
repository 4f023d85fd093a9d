package com.statefulcvm.delegates.scale;

import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.delegates.support.EffectScope;
import com.statefulcvm.delegates.support.PhalaEffects;
import com.statefulcvm.delegates.support.SlotConditions;
import com.statefulcvm.delegates.support.SlotProvisioner;
import com.statefulcvm.delegates.support.SlotReader;
import com.statefulcvm.fleet.ConditionType;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.Slots;
import com.statefulcvm.fleet.admission.Fence;
import com.statefulcvm.fleet.admission.FenceRegistry;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.camunda.bpm.engine.delegate.JavaDelegate;
import org.springframework.stereotype.Component;

import java.util.Optional;

import static com.statefulcvm.delegates.procedure.RolloutVariables.STAGE;
import static com.statefulcvm.delegates.procedure.RolloutVariables.TARGET_COMPOSE;

/**
 * "Create or start the slot's CVM": a slot without a CVM gets a new one under the set's app (named after the slot,
 * with the set's current revision); a stopped CVM (a retained slot) is started again with its disk and identity.
 * Decided from what Phala shows, and each call asked at most once per attempt at the slot ({@link PhalaEffects}: its
 * intent is committed first), so that a job that runs again creates or starts nothing twice.
 */
@Component("startScaledSlot")
public class StartScaledSlot implements JavaDelegate {

    private final SlotReader slots;
    private final SlotProvisioner provisioner;
    private final PhalaEffects effects;
    private final SlotConditions conditions;
    private final FenceRegistry fences;

    public StartScaledSlot(SlotReader slots, SlotProvisioner provisioner, PhalaEffects effects, SlotConditions conditions,
                           FenceRegistry fences) {
        this.fences = fences;
        this.slots = slots;
        this.provisioner = provisioner;
        this.effects = effects;
        this.conditions = conditions;
    }

    @Override
    public void execute(DelegateExecution execution) {
        ReplicaSetSpec spec = slots.spec(execution);
        String slot = slots.slot(execution);
        Optional<CvmInfo> cvm = slots.find(spec, slot).filter(c -> !"deleting".equals(c.status()));
        EffectScope scope = EffectScope.of(execution);
        String stage;
        Optional<Fence> fence = cvm.isEmpty() ? Optional.empty() : fences.fence(spec.getName(), Slots.ordinalOf(spec.getName(), slot).orElse(-1));
        if (fence.isPresent()) {
            // a retained CVM that failed attestation is not started again by a scale (the scale halts at its deadline)
            stage = slot + " is " + fence.get().summary() + ": a scale does not start a fenced CVM; delete it or readmit it first";
        } else if (cvm.isEmpty()) {
            stage = provisioner.ensureCreated(execution, scope, spec, slot, cvm, (String) execution.getVariable(TARGET_COMPOSE));
        } else if (cvm.get().isRunning() || !cvm.get().isSettled()) {
            stage = "CVM " + slot + " is " + cvm.get().status() + "; waiting for it to run";
        } else {
            stage = "start of " + slot + " (it was " + cvm.get().status() + "; disk and instance " + cvm.get().instanceId()
                    + " kept): " + effects.start(scope, cvm.get()).text();
        }
        conditions.set(spec, slot, ConditionType.Programmed, true, stage);
        execution.setVariable(STAGE, stage);
    }
}
