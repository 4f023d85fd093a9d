package com.statefulcvm.delegates.procedure;

import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.healing.MonitorLeases;
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

import static com.statefulcvm.delegates.procedure.HealVariables.*;

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
 *   <li>every start first locks the set's row in the database ({@link MonitorLeases#lockForHealStart}) and only then
 *   looks at the running heals, so that two starts for one set in concurrent transactions (two nodes, the monitor and
 *   the REST API) are decided one after the other, the second seeing the first's heal.</li>
 * </ul>
 */
@Component
public class HealStarter {

    private static final Logger log = LoggerFactory.getLogger(HealStarter.class);
    private static final String ROLLOUT_PROCESS = RolloutVariables.PROCESS_KEY;
    private static final String SCALE_PROCESS = com.statefulcvm.delegates.procedure.ScaleVariables.PROCESS_KEY;
    private static final String LIGHTS_OUT_PROCESS = com.statefulcvm.delegates.procedure.LightsOutVariables.PROCESS_KEY;

    private final RuntimeService runtime;
    private final MonitorLeases leases;
    private final OutageGuard outages;

    public HealStarter(RuntimeService runtime, MonitorLeases leases, OutageGuard outages) {
        this.runtime = runtime;
        this.leases = leases;
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

        /** The procedure that works on the slot, in words ("rollout 7 is working on db-1"), or null when none does. */
        public String holderOf(ReplicaSetSpec spec, int ordinal) {
            String slot = spec.slotName(ordinal);
            String rollout = rolloutOf(slot);
            if (rollout != null) {
                return "rollout " + rollout + " is working on " + slot;
            }
            String heal = healOf(spec.getName(), ordinal);
            return heal == null ? null : "heal " + heal + " is working on " + slot;
        }

        public int runningHeals() {
            return healsByKey.size();
        }
    }

    public Snapshot snapshot(String replicaSet) {
        Map<String, String> heals = new LinkedHashMap<>();
        for (ProcessInstance heal : runtime.createProcessInstanceQuery().processDefinitionKey(HEAL_PROCESS)
                .processInstanceBusinessKeyLike(replicaSet + "/%").unlimitedList()) {
            heals.putIfAbsent(heal.getBusinessKey(), heal.getId());
        }
        return new Snapshot(heals, claims(replicaSet));
    }

    /**
     * The snapshots of many sets at once (every one of them present), with three queries in all whatever their number:
     * what the health monitor reads once per tick for the sets whose round is due. A start still takes its own snapshot
     * under the set's lock.
     */
    public Map<String, Snapshot> snapshots(Collection<String> replicaSets) {
        Map<String, Snapshot> out = new HashMap<>();
        replicaSets.forEach(set -> out.put(set, new Snapshot(new LinkedHashMap<>(), new HashMap<>())));
        for (ProcessInstance heal : runtime.createProcessInstanceQuery().processDefinitionKey(HEAL_PROCESS).unlimitedList()) {
            Snapshot of = out.get(setOf(heal.getBusinessKey()));
            if (of != null) {
                of.healsByKey().putIfAbsent(heal.getBusinessKey(), heal.getId());
            }
        }
        List<ProcessInstance> holders = runtime.createProcessInstanceQuery()
                .processDefinitionKeyIn(ROLLOUT_PROCESS, SCALE_PROCESS, LIGHTS_OUT_PROCESS).unlimitedList().stream()
                .filter(p -> out.containsKey(p.getBusinessKey())).toList();
        if (!holders.isEmpty()) {
            Map<String, String> setOfInstance = new HashMap<>();
            holders.forEach(p -> setOfInstance.put(p.getId(), p.getBusinessKey()));
            claimsOf(setOfInstance).forEach((pid, slots) -> slots.forEach(slot ->
                    out.get(setOfInstance.get(pid)).rolloutsBySlot().putIfAbsent(slot, pid)));
        }
        return out;
    }

    /** The set of a heal's business key {@code <set>/<ordinal>}. */
    private static String setOf(String businessKey) {
        int slash = businessKey == null ? -1 : businessKey.lastIndexOf('/');
        return slash < 0 ? businessKey : businessKey.substring(0, slash);
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
                .processInstanceBusinessKey(replicaSet).unlimitedList();
        if (rollouts.isEmpty()) {
            return Map.of();
        }
        Map<String, String> instances = new HashMap<>();
        rollouts.forEach(p -> instances.put(p.getId(), replicaSet));
        Map<String, String> bySlot = new HashMap<>();
        claimsOf(instances).forEach((pid, slots) -> slots.forEach(slot -> bySlot.putIfAbsent(slot, pid)));
        return bySlot;
    }

    /** The slots each of the given rollout, scale or lights-out instances works on, by process instance id; one query. */
    private Map<String, List<String>> claimsOf(Map<String, String> instances) {
        Map<String, List<String>> slotsOf = new LinkedHashMap<>();
        for (VariableInstance variable : runtime.createVariableInstanceQuery()
                .processInstanceIdIn(instances.keySet().toArray(String[]::new))
                .variableNameIn(RolloutVariables.WAVE, RolloutVariables.SLOT).unlimitedList()) {
            List<String> slots = slotsOf.computeIfAbsent(variable.getProcessInstanceId(), pid -> new java.util.ArrayList<>());
            Object value = variable.getValue();
            if (value instanceof Collection<?> wave) {
                wave.forEach(slot -> slots.add(String.valueOf(slot)));
            } else if (value instanceof String slot) {
                slots.add(slot);
            }
        }
        return slotsOf;
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
     * Locks the set's heal starts, looks at the engine afresh under that lock, and starts the heal unless a rule
     * refuses it. Run it in a transaction: the lock is held until the transaction ends.
     *
     * @param snapshot    the caller's view of the set; a started heal is added to it, so that several starts in one
     *                    monitor round see each other
     * @param withinBudget true for the monitor: refuse when maxConcurrent heals of the set are running
     */
    public Outcome start(ReplicaSetSpec spec, int ordinal, String reason, String trigger, String requestedBy,
                         Snapshot snapshot, boolean withinBudget) {
        String key = businessKey(spec.getName(), ordinal);
        String slot = spec.slotName(ordinal);
        serializeStartsOf(spec.getName());
        Outcome refusal = refusal(spec, ordinal, snapshot(spec.getName()), withinBudget);
        if (refusal != null) {
            return refusal;
        }
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

    /**
     * Takes the lock every heal start of the set takes first (the set's row in the database, until the transaction
     * ends): call it before looking at the running heals, so that a concurrent start is either over or waits.
     */
    public void serializeStartsOf(String replicaSet) {
        leases.lockForHealStart(replicaSet);
    }
}
