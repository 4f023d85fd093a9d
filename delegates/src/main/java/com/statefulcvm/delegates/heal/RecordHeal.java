package com.statefulcvm.delegates.heal;

import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.delegates.support.ReplicaSetObserver;
import com.statefulcvm.delegates.support.ReplicaSets;
import com.statefulcvm.delegates.support.SlotReader;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.healing.SlotHealthRegistry;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.camunda.bpm.engine.delegate.JavaDelegate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import java.time.Clock;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

import static com.statefulcvm.delegates.procedure.HealVariables.*;
import static com.statefulcvm.delegates.procedure.RolloutVariables.OUTCOME;
import static com.statefulcvm.delegates.procedure.RolloutVariables.STAGE;

/**
 * "Record what happened and why": the outcome in words in the process ({@code outcome}, {@code healResult}) and on
 * the instance (its registry condition, the last heal of its slot). A replacement binds the slot to the new
 * instance_id and increases the slot's epoch; the old identity is never reused, so a replacement that left the old
 * instance_id in the slot fails here rather than being recorded as done. The counters of the health monitor start
 * again from zero, and its initial delay from now.
 */
@Component("recordHeal")
public class RecordHeal implements JavaDelegate {

    private static final Logger log = LoggerFactory.getLogger(RecordHeal.class);

    private final SlotReader slots;
    private final ReplicaSets replicaSets;
    private final ReplicaSetObserver observer;
    private final SlotHealthRegistry slotHealth;
    private final Clock clock;

    public RecordHeal(SlotReader slots, ReplicaSets replicaSets, ReplicaSetObserver observer, SlotHealthRegistry slotHealth,
                      Clock clock) {
        this.slots = slots;
        this.replicaSets = replicaSets;
        this.observer = observer;
        this.slotHealth = slotHealth;
        this.clock = clock;
    }

    @Override
    public void execute(DelegateExecution execution) {
        ReplicaSetSpec spec = slots.spec(execution);
        String slot = slots.slot(execution);
        int ordinal = replicaSets.ordinalOf(spec, slot);
        String result = Objects.toString(execution.getVariable(HEAL_RESULT), "stopped");
        String oldInstance = (String) execution.getVariable(BOUND_INSTANCE_ID);
        Optional<CvmInfo> cvm = slots.find(spec, slot).filter(c -> !"deleting".equals(c.status()));
        cvm.ifPresent(c -> observer.observe(spec, c));
        String instance = cvm.map(CvmInfo::instanceId).orElse(null);

        int epoch = slotHealth.get(spec.getName(), ordinal).map(h -> h.epoch()).orElse(0);
        String what = switch (result) {
            case "restarted" -> "healed by restart: " + slot + " is healthy again on the same instance " + instance + " (disk kept)";
            case "replaced" -> {
                if (instance == null || instance.equals(oldInstance)) {
                    throw new IllegalStateException("the replacement of " + slot + " left instance " + instance
                            + " in the slot, the old identity was " + oldInstance + ": a replacement must bring a new instance_id");
                }
                epoch = slotHealth.advanceEpoch(spec.getName(), ordinal, instance);
                yield "replaced: " + slot + " has a new CVM " + cvm.get().id() + ", instance " + instance + " (epoch " + epoch
                        + ", empty disk); the old instance " + oldInstance + " is never reused";
            }
            case "resolved" -> "handed over to the operator, who resolved it (" + execution.getVariable(HEAL_FAILURE) + ")";
            case "rejected" -> "not healed: the operator rejected the restart";
            case "yielded" -> "left to a rollout: " + execution.getVariable(HEAL_FAILURE);
            default -> "stopped by the operator during a drain or rejoin hook";
        };
        String outcome = what + "; why: " + execution.getVariable(HEAL_REASON);
        Instant now = clock.instant();
        boolean healed = "restarted".equals(result) || "replaced".equals(result);
        observer.recordCondition(spec, slot, (healed ? "Healed: " : "Not healed (" + result + "): ") + outcome);
        slotHealth.recordHeal(spec.getName(), ordinal, outcome, now);
        execution.setVariable(EPOCH, epoch);
        execution.setVariable(OUTCOME, outcome);
        execution.setVariable(STAGE, what);
        log.info("Heal of {} ({}): {}", slot, execution.getProcessInstanceId(), outcome);
    }
}
