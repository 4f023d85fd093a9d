package com.statefulcvm.delegates.procedure;

import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.budget.DisruptionBudget;
import com.statefulcvm.fleet.budget.Outage;
import com.statefulcvm.fleet.budget.OutageRegistry;
import com.statefulcvm.fleet.budget.SlotAvailability;
import org.camunda.bpm.engine.RuntimeService;
import org.camunda.bpm.engine.runtime.ProcessInstance;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The outage side of the disruption budget ({@link DisruptionBudget}), for every actor:
 * <ul>
 *   <li>the health monitor calls {@link #afterRound} once per round that writes anything (or {@link #mayBeInOutage}
 *   says it must), after judging every slot and before it starts any heal (the one call where it decides to act): more slots down than the budget tolerates is an outage, not a
 *   failure. The set's outage is recorded (its {@code Outage} condition), heals are not started, running rollouts are
 *   paused at their next wave, and once a slot would have been healed a lights-out recovery is proposed: started with
 *   {@code lightsOutTrigger = outage}, it starts every CVM with its workload held back, asks each replica for its
 *   sequence number and waits for an operator's seed decision in Tasklist. When enough slots serve again the outage
 *   ends and heals resume;</li>
 *   <li>every start of a procedure that acts on one slot (heal, readmit, rollout, scale, failover) asks
 *   {@link #refusal} and is refused while the outage stands; a running heal yields at its next step.</li>
 * </ul>
 */
@Component
public class OutageGuard {

    private static final Logger log = LoggerFactory.getLogger(OutageGuard.class);


    private final OutageRegistry outages;
    private final RuntimeService runtime;
    private final Clock clock;
    private final LightsOutStarter recoveries;
    /** Sets this node has seen in an outage (true) or not (false); absent: not looked at yet. */
    private final Map<String, Boolean> declared = new ConcurrentHashMap<>();

    public OutageGuard(OutageRegistry outages, RuntimeService runtime, Clock clock) {
        this.outages = outages;
        this.runtime = runtime;
        this.clock = clock;
        this.recoveries = new LightsOutStarter(runtime);
    }

    /** What the monitor may do after a round: heal (no outage), or nothing but say why. */
    public record RoundDecision(boolean healsAllowed, String note) {
    }

    /**
     * @param slots    every slot of the set as the round judged it
     * @param healDue  a slot reached the unhealthy threshold this round: in an outage, the moment to propose the recovery
     */
    public RoundDecision afterRound(ReplicaSetSpec spec, List<SlotAvailability> slots, boolean healDue) {
        String set = spec.getName();
        DisruptionBudget.Judgement judgement = DisruptionBudget.of(spec).judge(slots);
        Optional<Outage> known = outages.outage(set);
        if (!judgement.outage()) {
            declared.put(set, false);
            if (known.isPresent()) {
                outages.end(set);
                log.warn("Outage of replica set '{}' is over: {}; heals resume", set, judgement.summary());
            }
            return new RoundDecision(true, null);
        }
        String down = judgement.downSummary();
        Outage outage = known.map(o -> o.withDown(down, judgement.budget().describe()))
                .orElseGet(() -> new Outage(set, clock.instant(), down, judgement.budget().describe(), null));
        if (known.isEmpty()) {
            log.warn("Replica set '{}' is in an outage: {}; no heal, rollout, scale or failover acts on one slot", set,
                    judgement.summary());
            pauseRollouts(set);
        }
        String blocked = null;
        if (outage.recovery() == null && healDue) {
            blocked = blockerOfRecovery(set);
            if (blocked == null) {
                outage = outage.withRecovery(proposeRecovery(spec, outage));
            }
        }
        if (!known.equals(Optional.of(outage))) {
            outages.declare(outage);
        }
        declared.put(set, true);
        return new RoundDecision(false, outage.condition() + (blocked == null ? "" : "; recovery not proposed yet: " + blocked));
    }

    /**
     * Whether the monitor must look at the set's outage this round although nothing else changed: the round's slots make
     * an outage, or one is recorded for the set (remembered on this node once read, so that a quiet round costs no read).
     */
    public boolean mayBeInOutage(ReplicaSetSpec spec, List<SlotAvailability> slots) {
        if (!slots.isEmpty() && DisruptionBudget.of(spec).judge(slots).outage()) {
            return true;
        }
        return declared.computeIfAbsent(spec.getName(), set -> outages.outage(set).isPresent());
    }

    /** Why an actor must not act on one slot of the set now (its outage), empty when it may. */
    public Optional<String> refusal(String replicaSet, String what) {
        return outages.outage(replicaSet).map(o -> o.refusal(what));
    }

    public Optional<Outage> outage(String replicaSet) {
        return outages.outage(replicaSet);
    }

    /** A running rollout of the set stops at its next wave (its own pause: an operator resumes it once it is safe). */
    private void pauseRollouts(String set) {
        for (ProcessInstance rollout : runtime.createProcessInstanceQuery().processDefinitionKey(RolloutVariables.PROCESS_KEY)
                .processInstanceBusinessKey(set).active().list()) {
            runtime.createMessageCorrelation(RolloutVariables.MESSAGE_PAUSE).processInstanceId(rollout.getId()).correlateAll();
            log.warn("Outage of '{}': paused rollout {} at its next wave", set, rollout.getId());
        }
    }

    /**
     * What keeps a lights-out recovery from starting (the same procedures its start check refuses beside it), or null.
     * Checked first, so that the monitor's round never runs into a refused start.
     */
    private String blockerOfRecovery(String set) {
        for (String key : List.of(LightsOutVariables.PROCESS_KEY, RolloutVariables.PROCESS_KEY, ScaleVariables.PROCESS_KEY,
                FailoverVariables.PROCESS_KEY)) {
            List<ProcessInstance> running = runtime.createProcessInstanceQuery().processDefinitionKey(key).processInstanceBusinessKey(set).list();
            if (!running.isEmpty()) {
                return key + " " + running.get(0).getId() + " is running" + (key.equals(LightsOutVariables.PROCESS_KEY) ? "" : "; end it first");
            }
        }
        for (String key : List.of(HealVariables.HEAL_PROCESS, AttestationVariables.ADMIT_PROCESS)) {
            List<ProcessInstance> running = runtime.createProcessInstanceQuery().processDefinitionKey(key)
                    .processInstanceBusinessKeyLike(set + "/%").list();
            if (!running.isEmpty()) {
                return key + " " + running.get(0).getId() + " of " + running.get(0).getBusinessKey() + " is running (it yields)";
            }
        }
        return null;
    }

    private String proposeRecovery(ReplicaSetSpec spec, Outage outage) {
        String id = recoveries.proposeForOutage(spec.getName(), "proposed by the health monitor: outage since " + outage.since()
                + ": " + outage.down() + "; " + outage.budget());
        log.warn("Outage of '{}': proposed lights-out recovery {} (its seed decision waits in Tasklist)", spec.getName(), id);
        return id;
    }
}
