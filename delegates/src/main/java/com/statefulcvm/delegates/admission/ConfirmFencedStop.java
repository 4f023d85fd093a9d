package com.statefulcvm.delegates.admission;

import com.statefulcvm.delegates.procedure.AttestationVariables;
import com.statefulcvm.delegates.support.EffectScope;
import com.statefulcvm.delegates.support.PhalaEffects;
import com.statefulcvm.delegates.support.SlotReader;
import com.statefulcvm.fleet.ReplicaSetSpec;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.camunda.bpm.engine.delegate.JavaDelegate;
import org.springframework.stereotype.Component;

import static com.statefulcvm.delegates.procedure.RolloutVariables.STAGE;

/**
 * attest-instance.bpmn, under on-failure STOP: "Check the fenced CVM has stopped": polled until Phala shows the fenced
 * CVM stopped or gone, asking for the stop again while it is not ({@link FencedStop}). The fence itself was committed
 * before the first stop was asked; this loop only makes the stop hold, however long Phala takes or refuses.
 */
@Component("confirmFencedStop")
public class ConfirmFencedStop implements JavaDelegate {

    private final SlotReader slots;
    private final PhalaEffects effects;

    public ConfirmFencedStop(SlotReader slots, PhalaEffects effects) {
        this.slots = slots;
        this.effects = effects;
    }

    @Override
    public void execute(DelegateExecution execution) {
        ReplicaSetSpec spec = slots.spec(execution);
        String slot = slots.slot(execution);
        boolean holds = FencedStop.ensureStopped(effects, EffectScope.of(execution), slot, slots.find(spec, slot));
        execution.setVariable(AttestationVariables.FENCE_HOLDS, holds);
        execution.setVariable(STAGE, holds ? slot + " is fenced and its CVM is stopped"
                : slot + " is fenced; its CVM is not stopped yet: the stop is asked again");
    }
}
