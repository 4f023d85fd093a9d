package com.statefulcvm.delegates.scale;

import com.statefulcvm.delegates.procedure.ProcedureVariables;
import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.delegates.procedure.ComposeValue;
import com.statefulcvm.delegates.support.ReplicaSets;
import com.statefulcvm.delegates.support.SlotReader;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.rollout.RolloutAction;
import com.statefulcvm.fleet.scaling.RetainedSlot;
import com.statefulcvm.fleet.scaling.ScaleRegistry;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.camunda.bpm.engine.delegate.JavaDelegate;
import org.springframework.stereotype.Component;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

import static com.statefulcvm.delegates.procedure.RolloutVariables.ACTIONS;
import static com.statefulcvm.delegates.procedure.RolloutVariables.ALLOWED_COMPOSE_HASHES;
import static com.statefulcvm.delegates.procedure.RolloutVariables.BOUND_INSTANCE_IDS;
import static com.statefulcvm.delegates.procedure.RolloutVariables.CVM_POLL_INTERVAL;
import static com.statefulcvm.delegates.procedure.RolloutVariables.HEALTH_PROBE_INTERVAL;
import static com.statefulcvm.delegates.procedure.RolloutVariables.HOOK_DEFAULT_RESULT;
import static com.statefulcvm.delegates.procedure.RolloutVariables.HOOK_POLL_INTERVAL;
import static com.statefulcvm.delegates.procedure.RolloutVariables.HOOK_TIMEOUT;
import static com.statefulcvm.delegates.procedure.RolloutVariables.PROGRESS_DEADLINE;
import static com.statefulcvm.delegates.procedure.RolloutVariables.STAGE;
import static com.statefulcvm.delegates.procedure.RolloutVariables.TARGET_COMPOSE;
import static com.statefulcvm.delegates.procedure.RolloutVariables.WORKLOAD_TYPE;
import static com.statefulcvm.delegates.procedure.ScaleVariables.*;

/**
 * "Look at the slot": what the slot's CVM is now, for the steps of one slot. A slot being added either comes back
 * (a CVM that an earlier scale-down retained: started again with its disk, and attested as the same instance_id) or
 * gets a new CVM (created with the set's current revision, attested as a new identity; the slot's epoch increases when
 * it is recorded). The shared steps read the slot's plan as the rollout's do: {@code actions} (ADD_SURGE: create the
 * CVM if the slot has none) and {@code boundInstanceIds}. A slot being removed is drained first if it can be reached.
 */
@Component("lookAtScaleSlot")
public class LookAtScaleSlot implements JavaDelegate {

    private final SlotReader slots;
    private final ReplicaSets replicaSets;
    private final ScaleRegistry scales;

    public LookAtScaleSlot(SlotReader slots, ReplicaSets replicaSets, ScaleRegistry scales) {
        this.slots = slots;
        this.replicaSets = replicaSets;
        this.scales = scales;
    }

    @Override
    public void execute(DelegateExecution execution) {
        ReplicaSetSpec spec = slots.spec(execution);
        String slot = slots.slot(execution);
        int ordinal = replicaSets.ordinalOf(spec, slot);
        Optional<CvmInfo> cvm = slots.find(spec, slot).filter(c -> !"deleting".equals(c.status()));
        Optional<RetainedSlot> retained = scales.retained(spec.getName()).stream().filter(r -> r.ordinal() == ordinal).findFirst();
        // a retained slot whose CVM is still the one it kept comes back as that instance; anything else is new
        boolean comesBack = retained.isPresent() && cvm.isPresent() && retained.get().instanceId() != null
                && retained.get().instanceId().equals(cvm.get().instanceId());
        String bound = comesBack ? cvm.get().instanceId() : null;
        Map<String, String> boundIds = new HashMap<>();
        if (bound != null) {
            boundIds.put(slot, bound);
            // it keeps the compose it has: what it ran when it was retained
            execution.setVariable(TARGET_COMPOSE, ComposeValue.of(cvm.get().dockerCompose()));
        }
        execution.setVariable(RETAINED, comesBack);
        execution.setVariable(BOUND_INSTANCE_IDS, boundIds);
        execution.setVariable(ProcedureVariables.BOUND_INSTANCE_ID, bound);
        execution.setVariable(ACTIONS, new HashMap<>(Map.of(slot, RolloutAction.ADD_SURGE.name())));
        execution.setVariable(CVM_REACHABLE, cvm.map(c -> c.isRunning() && c.isSettled()).orElse(false));
        execution.setVariable(STAGE, cvm.map(c -> slot + ": CVM " + c.name() + " is " + c.status() + ", instance " + c.instanceId()
                        + (comesBack ? " (retained by a scale-down: it comes back with its disk and identity)" : ""))
                .orElse(slot + ": no CVM" + (retained.isPresent() ? " (it was retained, but its CVM is gone: a new one takes the slot)" : "")));
    }
}
