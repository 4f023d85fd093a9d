package com.statefulcvm.delegates.scale;

import com.statefulcvm.connectors.phala.PhalaCloudClient;
import com.statefulcvm.connectors.phala.model.CvmInfo;
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

import static com.statefulcvm.delegates.rollout.RolloutVariables.STAGE;
import static com.statefulcvm.delegates.rollout.RolloutVariables.TARGET_COMPOSE;
import static com.statefulcvm.delegates.scale.ScaleVariables.START_REQUESTED;

/**
 * "Create or start the slot's CVM": a slot without a CVM gets a new one under the set's app (named after the slot,
 * with the set's current revision); a stopped CVM (a retained slot) is started again with its disk and identity.
 * Decided from what Phala shows, so that a job that runs again creates nothing twice; the start request is
 * remembered, since a start cannot be seen once the CVM runs.
 */
@Component("startScaledSlot")
public class StartScaledSlot implements JavaDelegate {

    private final SlotReader slots;
    private final SlotProvisioner provisioner;
    private final PhalaCloudClient phala;
    private final SlotConditions conditions;
    private final FenceRegistry fences;

    public StartScaledSlot(SlotReader slots, SlotProvisioner provisioner, PhalaCloudClient phala, SlotConditions conditions,
                           FenceRegistry fences) {
        this.fences = fences;
        this.slots = slots;
        this.provisioner = provisioner;
        this.phala = phala;
        this.conditions = conditions;
    }

    @Override
    public void execute(DelegateExecution execution) {
        ReplicaSetSpec spec = slots.spec(execution);
        String slot = slots.slot(execution);
        Optional<CvmInfo> cvm = slots.find(spec, slot).filter(c -> !"deleting".equals(c.status()));
        String stage;
        Optional<Fence> fence = cvm.isEmpty() ? Optional.empty() : fences.fence(spec.getName(), Slots.ordinalOf(spec.getName(), slot).orElse(-1));
        if (fence.isPresent()) {
            // a retained CVM that failed attestation is not started again by a scale (the scale halts at its deadline)
            stage = slot + " is " + fence.get().summary() + ": a scale does not start a fenced CVM; delete it or readmit it first";
        } else if (cvm.isEmpty()) {
            stage = provisioner.ensureCreated(spec, slot, cvm, (String) execution.getVariable(TARGET_COMPOSE));
        } else if (cvm.get().isRunning() || !cvm.get().isSettled()) {
            stage = "CVM " + slot + " is " + cvm.get().status() + "; waiting for it to run";
        } else if (Boolean.TRUE.equals(execution.getVariable(START_REQUESTED))) {
            stage = "start of " + slot + " already requested";
        } else {
            phala.start(cvm.get().id());
            execution.setVariable(START_REQUESTED, true);
            stage = "start of " + slot + " requested: it was " + cvm.get().status() + " (disk and instance "
                    + cvm.get().instanceId() + " kept)";
        }
        conditions.set(spec, slot, ConditionType.Programmed, true, stage);
        execution.setVariable(STAGE, stage);
    }
}
