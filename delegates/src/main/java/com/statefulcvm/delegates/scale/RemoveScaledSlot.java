package com.statefulcvm.delegates.scale;

import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.delegates.support.EffectScope;
import com.statefulcvm.delegates.support.PhalaEffects;
import com.statefulcvm.delegates.support.SlotProvisioner;
import com.statefulcvm.delegates.support.SlotReader;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.scaling.ScaleDownPolicy;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.camunda.bpm.engine.delegate.JavaDelegate;
import org.springframework.stereotype.Component;

import java.util.Optional;

import static com.statefulcvm.delegates.procedure.RolloutVariables.STAGE;
import static com.statefulcvm.delegates.procedure.ScaleVariables.SCALE_DOWN_POLICY;
import static com.statefulcvm.delegates.procedure.ScaleVariables.SLOT_REMOVED;

/**
 * "Stop or delete the slot's CVM", polled until done ({@code slotRemoved}): under scaling.scaleDown RETAIN the CVM is
 * shut down and kept with its disk and identity; under DELETE it is deleted. Asks Phala only for what is still to do
 * and only while the CVM is settled, so that a repeated job changes nothing.
 */
@Component("removeScaledSlot")
public class RemoveScaledSlot implements JavaDelegate {

    private final SlotReader slots;
    private final SlotProvisioner provisioner;
    private final PhalaEffects effects;

    public RemoveScaledSlot(SlotReader slots, SlotProvisioner provisioner, PhalaEffects effects) {
        this.slots = slots;
        this.provisioner = provisioner;
        this.effects = effects;
    }

    @Override
    public void execute(DelegateExecution execution) {
        ReplicaSetSpec spec = slots.spec(execution);
        String slot = slots.slot(execution);
        ScaleDownPolicy policy = ScaleDownPolicy.valueOf((String) execution.getVariable(SCALE_DOWN_POLICY));
        Optional<CvmInfo> found = slots.find(spec, slot);
        EffectScope scope = EffectScope.of(execution);
        boolean done;
        String stage;
        if (found.isEmpty()) {
            done = true;
            stage = slot + " has no CVM (any more)";
        } else if (policy == ScaleDownPolicy.DELETE) {
            done = false;
            stage = provisioner.ensureDeleteRequested(scope, found.get());
        } else {
            CvmInfo cvm = found.get();
            // settled and not running: stopped (or crashed), which is what a retained slot is
            done = cvm.isSettled() && !cvm.isRunning();
            if (done) {
                stage = "CVM " + slot + " is " + cvm.status() + " and retained (disk and instance " + cvm.instanceId() + " kept)";
            } else if (!cvm.isSettled()) {
                stage = "waiting for CVM " + slot + " to stop: " + cvm.status() + ", operation in progress";
            } else {
                stage = "shutdown of " + slot + " (its disk and instance " + cvm.instanceId() + " are retained): "
                        + effects.shutdown(scope, cvm).text();
            }
        }
        execution.setVariable(SLOT_REMOVED, done);
        execution.setVariable(STAGE, stage);
    }
}
