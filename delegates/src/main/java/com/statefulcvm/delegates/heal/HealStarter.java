package com.statefulcvm.delegates.heal;

import com.statefulcvm.delegates.budget.OutageGuard;
import com.statefulcvm.delegates.rollout.RolloutVariables;
import com.statefulcvm.fleet.ReplicaSetSpec;
import org.camunda.bpm.engine.RuntimeService;
import org.camunda.bpm.engine.runtime.ProcessInstance;
import org.camunda.bpm.engine.runtime.VariableInstance;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static com.statefulcvm.delegates.heal.HealVariables.*;

/**
 * Starts heal.bpmn for one instance, by its start message with business key {@code <set>/<ordinal>}, after the checks
 * that keep healing safe, all made from the engine's runtime state in the caller's transaction:
 * <ul>
 *   <li>never two heals of one instance: a running heal instance with that business key refuses the start;</li>
 *   <li>no heal of an instance a rollout is working on: see {@link #claims};</li>
 *   <li>no heal while the set is in an outage ({@link OutageGuard}): more slots down than its disruption budget
 *   tolerates; the set is recovered as a whole, never by healing one slot (for the operator's readmit too);</li>
 *   <li>for the monitor, at most {@code autoHealing.maxConcurrent} running heals per set (an operator's explicit
 *   request is not held to the budget, but counts against it);</li>
 *   <li>the start increments {@link HealVariables#HEALS_STARTED} on the set's monitor instance, so that two starts for
 *   one set in concurrent transactions (two nodes, the monitor and the REST API) conflict on the engine's optimistic
 *   locking and one of them is rolled back and tried again with the other's heal visible.</li>
 * </ul>
 */
@Component
public class HealStarter {

    private static final Logger log = LoggerFactory.getLogger(HealStarter.class);
    private static final String ROLLOUT_PROCESS = RolloutVariables.PROCESS_KEY;
    private static final String SCALE_PROCESS = com.statefulcvm.delegates.scale.ScaleVariables.PROCESS_KEY;
    private static final String LIGHTS_OUT_PROCESS = com.statefulcvm.delegates.lightsout.LightsOutVariables.PROCESS_KEY;

    private final RuntimeService runtime;
    private final OutageGuard outages;

    public HealStarter(RuntimeService runtime, OutageGuard outages) {
        this.runtime = runtime;
        this.outages = outages;
    }

    /** What the engine is doing to a set now: its running heals by business key, and which slots rollouts hold. */
    public record Snapshot(Map<String, String> healsByKey, Map<String, String> rolloutsBySlot) {

        public String healOf(String replicaSet, int ordinal) {
            return healsByKey.get(businessKey(replicaSet, ordinal));
        }

        public String rolloutOf(String slot) {
            return rolloutsBySlot.get(slot);
        }

        public int runningHeals() {
            return healsByKey.size();
        }
    }

    public Snapshot snapshot(String replicaSet) {
        Map<String, String> heals = new LinkedHashMap<>();
        for (ProcessInstance heal : runtime.createProcessInstanceQuery().processDefinitionKey(HEAL_PROCESS)
                .processInstanceBusinessKeyLike(replicaSet + "/%").list()) {
            heals.putIfAbsent(heal.getBusinessKey(), heal.getId());
        }
        return new Snapshot(heals, claims(replicaSet));
    }

    /**
     * The slots that running rollouts of the set are working on, each with its rollout's process instance id. A
     * rollout works on the slots of its current wave, from the first drain to the last rejoin, including those of
     * the wave that are ready and wait for the others, and a slot it halted at (until the operator retries, skips or
     * aborts). The engine's runtime state shows them: the sequential wave loop's element variable {@code wave} (the
     * current wave's slots) and the per-slot loop's element variable {@code slot}, in every running rollout instance
     * whose business key is the set's name (an automatic rollback, a called rollout, has the same key). A rollout
     * still being planned or waiting for its approval works on no slot yet. A running scale of the set (scale.bpmn, the
     * same business key) holds the slot it is adding or removing, by its per-slot loop's {@code slot}, in the same way; a
     * running lights-out recovery holds every slot of the set (its {@code wave} lists them all).
     */
    public Map<String, String> claims(String replicaSet) {
        List<ProcessInstance> rollouts = runtime.createProcessInstanceQuery().processDefinitionKeyIn(ROLLOUT_PROCESS, SCALE_PROCESS, LIGHTS_OUT_PROCESS)
                .processInstanceBusinessKey(replicaSet).list();
        if (rollouts.isEmpty()) {
            return Map.of();
        }
        String[] ids = rollouts.stream().map(ProcessInstance::getId).toArray(String[]::new);
        Map<String, String> bySlot = new HashMap<>();
        for (VariableInstance variable : runtime.createVariableInstanceQuery().processInstanceIdIn(ids)
                .variableNameIn(RolloutVariables.WAVE, RolloutVariables.SLOT).list()) {
            Object value = variable.getValue();
            if (value instanceof Collection<?> wave) {
                wave.forEach(slot -> bySlot.putIfAbsent(String.valueOf(slot), variable.getProcessInstanceId()));
            } else if (value instanceof String slot) {
                bySlot.putIfAbsent(slot, variable.getProcessInstanceId());
            }
        }
        return bySlot;
    }

    /** Why a start did or did not happen. */
    public sealed interface Outcome permits Started, AlreadyHealing, HeldByRollout, OverBudget, InOutage {
    }

    public record Started(String processInstanceId) implements Outcome {
    }

    public record AlreadyHealing(String processInstanceId) implements Outcome {
    }

    public record HeldByRollout(String processInstanceId) implements Outcome {
    }

    public record OverBudget(int running, int maxConcurrent) implements Outcome {
    }

    /** The set is in an outage: no heal of one of its slots; {@code refusal} says why and what to do instead. */
    public record InOutage(String refusal) implements Outcome {
    }

    /**
     * @param snapshot    from {@link #snapshot} in the same transaction; a started heal is added to it, so that several
     *                    starts in one monitor round see each other
     * @param withinBudget true for the monitor: refuse when maxConcurrent heals of the set are running
     */
    public Outcome start(ReplicaSetSpec spec, int ordinal, String reason, String trigger, String requestedBy,
                         Snapshot snapshot, boolean withinBudget) {
        String key = businessKey(spec.getName(), ordinal);
        String slot = spec.slotName(ordinal);
        Outcome refusal = refusal(spec, ordinal, snapshot, withinBudget);
        if (refusal != null) {
            return refusal;
        }
        serializeStartsOf(spec.getName());
        Map<String, Object> variables = new HashMap<>();
        variables.put(REPLICA_SET, spec.getName());
        variables.put(ORDINAL, ordinal);
        variables.put(SLOT, slot);
        variables.put(HEAL_REASON, reason);
        variables.put(HEAL_TRIGGER, trigger);
        variables.put(REQUESTED_BY, requestedBy);
        ProcessInstance heal = runtime.createMessageCorrelation(HEAL_MESSAGE)
                .processInstanceBusinessKey(key)
                .setVariables(variables)
                .correlateStartMessage();
        snapshot.healsByKey().put(key, heal.getId());
        log.info("Started heal {} of {} ({}): {}", heal.getId(), slot, trigger, reason);
        return new Started(heal.getId());
    }

    /** Why a heal of the instance must not start now; null when it may. Also asked for a start made through the engine. */
    public Outcome refusal(ReplicaSetSpec spec, int ordinal, Snapshot snapshot, boolean withinBudget) {
        String running = snapshot.healOf(spec.getName(), ordinal);
        if (running != null) {
            return new AlreadyHealing(running);
        }
        var outage = outages.refusal(spec.getName(), "a heal of " + spec.slotName(ordinal));
        if (outage.isPresent()) {
            return new InOutage(outage.get());
        }
        String rollout = snapshot.rolloutOf(spec.slotName(ordinal));
        if (rollout != null) {
            return new HeldByRollout(rollout);
        }
        int budget = spec.getAutoHealing().getMaxConcurrent();
        if (withinBudget && snapshot.runningHeals() >= budget) {
            return new OverBudget(snapshot.runningHeals(), budget);
        }
        return null;
    }

    /** Why nothing may act on one slot of the set now (its outage), empty when something may. */
    public java.util.Optional<String> outageRefusal(String replicaSet, String what) {
        return outages.refusal(replicaSet, what);
    }

    /** Touches the one variable every start for the set writes: concurrent starts conflict and one is retried. */
    public void serializeStartsOf(String replicaSet) {
        for (ProcessInstance monitor : runtime.createProcessInstanceQuery().processDefinitionKey(MONITOR_PROCESS)
                .processInstanceBusinessKey(replicaSet).list()) {
            Object started = runtime.getVariable(monitor.getId(), HEALS_STARTED);
            runtime.setVariable(monitor.getId(), HEALS_STARTED, started instanceof Number n ? n.intValue() + 1 : 1);
        }
    }
}
