package com.statefulcvm.delegates.rollout;

import com.statefulcvm.delegates.procedure.RolloutVariables;
import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.delegates.support.EffectScope;
import com.statefulcvm.delegates.support.SlotConditions;
import com.statefulcvm.delegates.support.SlotProvisioner;
import com.statefulcvm.delegates.support.SlotReader;
import com.statefulcvm.delegates.support.ReplicaSets;
import com.statefulcvm.fleet.InstanceRegistry;
import com.statefulcvm.fleet.ReplicaSetSpec;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.camunda.bpm.engine.delegate.JavaDelegate;
import org.springframework.stereotype.Component;

import java.util.Optional;

import static com.statefulcvm.delegates.procedure.RolloutVariables.STAGE;

/**
 * "Remove the surge instance": deletes the temporary CVM and, once Phala no longer lists it, forgets its slot.
 * Runs again until {@code surgeRemoved}; safe to repeat at any point.
 */
@Component("removeSurgeInstance")
public class RemoveSurgeInstance implements JavaDelegate {


    private final SlotReader slots;
    private final SlotProvisioner provisioner;
    private final InstanceRegistry registry;
    private final ReplicaSets replicaSets;
    private final SlotConditions conditions;

    public RemoveSurgeInstance(SlotReader slots, SlotProvisioner provisioner, InstanceRegistry registry, ReplicaSets replicaSets,
                               SlotConditions conditions) {
        this.slots = slots;
        this.provisioner = provisioner;
        this.registry = registry;
        this.replicaSets = replicaSets;
        this.conditions = conditions;
    }

    @Override
    public void execute(DelegateExecution execution) {
        ReplicaSetSpec spec = slots.spec(execution);
        String slot = slots.slot(execution);
        int ordinal = replicaSets.ordinalOf(spec, slot);
        if (ordinal < spec.getReplicas()) {
            throw new IllegalArgumentException(slot + " is a regular slot of " + spec.getName() + ", not a surge slot; not removed");
        }
        Optional<CvmInfo> cvm = slots.find(spec, slot);
        if (cvm.isEmpty()) {
            registry.forget(spec.getName(), ordinal);
            conditions.forget(spec, slot);
            execution.setVariable(RolloutVariables.SURGE_REMOVED, true);
            execution.setVariable(STAGE, "surge instance " + slot + " removed");
            return;
        }
        execution.setVariable(RolloutVariables.SURGE_REMOVED, false);
        execution.setVariable(STAGE, provisioner.ensureDeleteRequested(EffectScope.of(execution), cvm.get()));
    }
}
