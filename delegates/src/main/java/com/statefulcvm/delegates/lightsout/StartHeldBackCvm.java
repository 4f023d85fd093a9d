package com.statefulcvm.delegates.lightsout;

import com.statefulcvm.delegates.procedure.LightsOutVariables;
import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.delegates.support.EffectScope;
import com.statefulcvm.delegates.support.PhalaEffects;
import com.statefulcvm.delegates.support.SlotConditions;
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

import static com.statefulcvm.delegates.procedure.RolloutVariables.CVM_RUNNING;
import static com.statefulcvm.delegates.procedure.RolloutVariables.STAGE;

/**
 * "Start the CVM with its workload held back": a stopped CVM of the slot is started again, on its own disk and
 * compose (nothing is created or updated: a lights-out recovery brings back what was there). Holding the workload
 * back is the compose's part (docs/lights-out.md): it answers its sequence number and does not serve until it is
 * released as the seed or joins as a follower. Polled until the CVM runs; decided from what Phala shows, and the start
 * asked at most once ({@link PhalaEffects}: its intent is committed before the call), so a job that runs again starts
 * nothing twice. A slot without a CVM has nothing to start: it is reported when its sequence number is asked for. A
 * fenced slot is never started without the operator's recorded override ({@code readmitFenced}).
 */
@Component("startHeldBackCvm")
public class StartHeldBackCvm implements JavaDelegate {


    private final SlotReader slots;
    private final PhalaEffects effects;
    private final SlotConditions conditions;
    private final FenceRegistry fences;

    public StartHeldBackCvm(SlotReader slots, PhalaEffects effects, SlotConditions conditions, FenceRegistry fences) {
        this.fences = fences;
        this.slots = slots;
        this.effects = effects;
        this.conditions = conditions;
    }

    @Override
    public void execute(DelegateExecution execution) {
        ReplicaSetSpec spec = slots.spec(execution);
        String slot = slots.slot(execution);
        Optional<CvmInfo> found = slots.find(spec, slot).filter(c -> !"deleting".equals(c.status()));
        boolean running = false;
        String stage;
        Optional<Fence> fence = fences.fence(spec.getName(), Slots.ordinalOf(spec.getName(), slot).orElse(-1));
        if (fence.isPresent() && !Boolean.TRUE.equals(execution.getVariable(LightsOutVariables.READMIT_FENCED))) {
            // the plan leaves fenced slots out; one fenced since is not started either
            stage = slot + " is " + fence.get().summary() + ": not started (no readmitFenced override)";
            execution.setVariable(LightsOutVariables.CVM_MISSING, true);
            execution.setVariable(CVM_RUNNING, false);
            execution.setVariable(STAGE, stage);
            return;
        }
        if (found.isEmpty()) {
            stage = slot + " has no CVM: nothing to start, no sequence number to ask";
        } else {
            CvmInfo cvm = found.get();
            if (cvm.isRunning() && cvm.isSettled()) {
                running = true;
                stage = "CVM " + slot + " runs (instance " + cvm.instanceId() + ")";
            } else if (!cvm.isSettled() || cvm.isRunning()) {
                stage = "waiting for CVM " + slot + ": status " + cvm.status();
            } else {
                stage = "start of " + slot + " (it was " + cvm.status() + "; disk and instance " + cvm.instanceId() + " kept): "
                        + effects.start(EffectScope.of(execution), cvm).text();
            }
            conditions.set(spec, slot, ConditionType.Running, running, "lights-out recovery: " + stage);
        }
        execution.setVariable(LightsOutVariables.CVM_MISSING, found.isEmpty());
        execution.setVariable(CVM_RUNNING, running);
        execution.setVariable(STAGE, stage);
    }
}
