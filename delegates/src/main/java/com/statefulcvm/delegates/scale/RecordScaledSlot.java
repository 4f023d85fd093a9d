package com.statefulcvm.delegates.scale;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.delegates.support.ReplicaSetObserver;
import com.statefulcvm.delegates.support.ReplicaSets;
import com.statefulcvm.delegates.support.SlotConditions;
import com.statefulcvm.delegates.support.SlotReader;
import com.statefulcvm.fleet.InstanceRegistry;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.healing.SlotHealthRegistry;
import com.statefulcvm.fleet.scaling.RetainedSlot;
import com.statefulcvm.fleet.scaling.ScaleDownPolicy;
import com.statefulcvm.fleet.scaling.ScaleRegistry;
import com.statefulcvm.fleet.scaling.ScaledCount;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.camunda.bpm.engine.delegate.JavaDelegate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import static com.statefulcvm.delegates.procedure.RolloutVariables.STAGE;
import static com.statefulcvm.delegates.procedure.RolloutVariables.STEP_OUTCOME;
import static com.statefulcvm.delegates.procedure.ScaleVariables.*;

/**
 * "Record the set's new size": the set's desired count moves by one slot, once that slot is done, so that every
 * reader (planner, health monitor, status) sees exactly the slots that are members: an added slot counts once it is
 * attested, healthy and joined; a removed one stops counting once the workload let it go and its CVM is stopped or
 * gone. An added slot is no longer retained and its new identity, if any, increases the slot's epoch; a removed slot
 * is remembered as retained (its CVM kept) or forgotten (its CVM deleted; the epoch stays, so a later CVM in the slot
 * is a new identity). The count is recorded with the fleet file's count it was made against (DesiredReplicas).
 */
@Component("recordScaledSlot")
public class RecordScaledSlot implements JavaDelegate {

    private static final Logger log = LoggerFactory.getLogger(RecordScaledSlot.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final SlotReader slots;
    private final ReplicaSets replicaSets;
    private final ReplicaSetObserver observer;
    private final ScaleRegistry scales;
    private final SlotHealthRegistry slotHealth;
    private final InstanceRegistry registry;
    private final SlotConditions conditions;
    private final Clock clock;

    public RecordScaledSlot(SlotReader slots, ReplicaSets replicaSets, ReplicaSetObserver observer, ScaleRegistry scales,
                            SlotHealthRegistry slotHealth, InstanceRegistry registry, SlotConditions conditions, Clock clock) {
        this.slots = slots;
        this.replicaSets = replicaSets;
        this.observer = observer;
        this.scales = scales;
        this.slotHealth = slotHealth;
        this.registry = registry;
        this.conditions = conditions;
        this.clock = clock;
    }

    @Override
    public void execute(DelegateExecution execution) throws JsonProcessingException {
        ReplicaSetSpec spec = slots.spec(execution);
        String slot = slots.slot(execution);
        int ordinal = replicaSets.ordinalOf(spec, slot);
        String set = spec.getName();
        boolean up = UP.equals(execution.getVariable(DIRECTION));
        Optional<CvmInfo> cvm = slots.find(spec, slot).filter(c -> !"deleting".equals(c.status()));
        Instant now = clock.instant();
        String by = String.valueOf(execution.getVariable(REQUESTED_BY));
        int count = up ? ordinal + 1 : ordinal;
        String result;
        if (up) {
            CvmInfo joined = cvm.orElseThrow(() -> new IllegalStateException(slot + " has no CVM: it cannot be counted as added"));
            observer.observe(spec, joined);
            scales.release(set, ordinal);
            int epoch = slotHealth.advanceEpoch(set, ordinal, joined.instanceId());
            result = (Boolean.TRUE.equals(execution.getVariable(RETAINED)) ? "came back (retained) as instance " : "added as instance ")
                    + joined.instanceId() + ", epoch " + epoch + ": attested, healthy and joined";
            observer.recordCondition(spec, slot, "Ready: joined by scale " + execution.getProcessInstanceId() + ", instance "
                    + joined.instanceId());
        } else if (cvm.isPresent() && ScaleDownPolicy.RETAIN.name().equals(execution.getVariable(SCALE_DOWN_POLICY))) {
            observer.observe(spec, cvm.get());
            scales.retain(new RetainedSlot(set, ordinal, slot, cvm.get().id(), cvm.get().instanceId(), by, now));
            result = "removed: left the workload, CVM " + cvm.get().status() + " and retained (instance " + cvm.get().instanceId() + ")";
            observer.recordCondition(spec, slot, "Retained by scale " + execution.getProcessInstanceId()
                    + ": stopped, disk and identity kept for a later scale-up of this slot");
        } else {
            registry.forget(set, ordinal);
            conditions.forget(spec, slot);
            scales.release(set, ordinal);
            result = "removed: left the workload, CVM deleted";
        }
        int fileReplicas = ((Number) execution.getVariable(FILE_REPLICAS)).intValue();
        scales.recordScaled(new ScaledCount(set, count, fileReplicas, by, now));

        Map<String, Object> outcome = new LinkedHashMap<>();
        outcome.put("slot", slot);
        outcome.put("ordinal", ordinal);
        outcome.put("action", up ? "ADD" : "REMOVE");
        outcome.put("result", result);
        outcome.put("replicas", count);
        outcome.put("at", now.toString());
        execution.setVariableLocal(STEP_OUTCOME, JSON.writeValueAsString(outcome));
        execution.setVariable(STAGE, slot + " " + result + "; " + set + " has " + count + " replicas");
        log.info("Scale {} of '{}': {} {}; desired replicas now {}", execution.getProcessInstanceId(), set, slot, result, count);
    }
}
