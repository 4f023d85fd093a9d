package com.statefulcvm.web.healing;

import com.statefulcvm.connectors.phala.PhalaApiException;
import com.statefulcvm.delegates.admission.AdmissionEnforcer;
import com.statefulcvm.delegates.procedure.AdmissionStarter;
import com.statefulcvm.delegates.procedure.OutageGuard;
import com.statefulcvm.delegates.procedure.HealStarter;
import com.statefulcvm.delegates.procedure.HealVariables;
import com.statefulcvm.delegates.heal.HealthRound;
import com.statefulcvm.delegates.support.EffectOutcome;
import com.statefulcvm.delegates.support.EffectScope;
import com.statefulcvm.delegates.support.PhalaEffects;
import com.statefulcvm.fleet.InstanceRecord;
import com.statefulcvm.fleet.InstanceRegistry;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.healing.HealthTracker.Judgement;
import com.statefulcvm.fleet.healing.MonitorLeases;
import com.statefulcvm.fleet.healing.SlotHealth;
import com.statefulcvm.fleet.healing.SlotHealthRegistry;
import com.statefulcvm.web.status.ObservedConditions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Does what a round decided ({@link HealthRound.Outcome}), in one transaction that first locks the set's monitor row
 * and checks that this node still holds the set: the registry rows and health counters that changed, the epochs of
 * new identities, the observed conditions, the re-attestations and the heals. A heal starts through
 * {@link HealStarter} (one heal per instance, the set's repair budget, never an instance a rollout works on, all
 * checked again under the set's lock). A round that changed nothing opens no transaction at all.
 */
class RoundEffects {

    private static final Logger log = LoggerFactory.getLogger(RoundEffects.class);

    private final MonitorLeases leases;
    private final InstanceRegistry registry;
    private final SlotHealthRegistry slotHealth;
    private final ObservedConditions conditions;
    private final HealStarter heals;
    private final OutageGuard outages;
    private final AdmissionStarter admissions;
    private final PhalaEffects effects;
    private final TransactionTemplate transaction;
    private final Clock clock;

    RoundEffects(MonitorLeases leases, InstanceRegistry registry, SlotHealthRegistry slotHealth, ObservedConditions conditions,
                 HealStarter heals, OutageGuard outages, AdmissionStarter admissions, PhalaEffects effects,
                 PlatformTransactionManager transactions, Clock clock) {
        this.outages = outages;
        this.leases = leases;
        this.registry = registry;
        this.slotHealth = slotHealth;
        this.conditions = conditions;
        this.heals = heals;
        this.admissions = admissions;
        this.effects = effects;
        this.transaction = new TransactionTemplate(transactions);
        this.clock = clock;
    }

    /**
     * What applying a round left behind.
     *
     * @param held              false when this node no longer holds the set: nothing was written
     * @param stage             the monitor's summary after the round, heal starts included
     * @param conditionsWaiting the set's conditions will change with time alone: track them at the next round too
     */
    record Applied(boolean held, String stage, boolean conditionsWaiting) {
    }

    /**
     * @param lastStage         what the set's row says now (written only when the round's stage differs)
     * @param conditionsWaiting the previous round left conditions that change with time
     */
    Applied apply(String node, ReplicaSetSpec spec, HealthRound.Outcome outcome, String lastStage, boolean conditionsWaiting) {
        boolean track = conditionsWaiting || !outcome.recordsToSave().isEmpty();
        if (!outcome.writes() && !track && Objects.equals(outcome.stage(), lastStage)
                && !outages.mayBeInOutage(spec, outcome.availability())) {
            stopAgain(spec, outcome);
            return new Applied(true, lastStage, false);
        }
        Applied applied = transaction.execute(status -> {
            if (!leases.lockIfHeld(spec.getName(), node)) {
                return new Applied(false, lastStage, conditionsWaiting);
            }
            HealStarter.Snapshot engine = heals.snapshot(spec.getName());
            Map<String, String> admitting = admissions.running(spec.getName());
            saveRecords(spec, outcome, engine, admitting);
            outcome.healthToSave().forEach(slotHealth::saveObservation);
            outcome.newIdentities().forEach((ordinal, instanceId) -> slotHealth.advanceEpoch(spec.getName(), ordinal, instanceId));
            boolean waiting = track && conditions.track(spec, outcome.records());
            for (AdmissionEnforcer.Reattest again : outcome.reattest()) {
                // a procedure that took the slot since the round's reads attests it itself
                if (engine.holderOf(spec, again.ordinal()) == null) {
                    admissions.start(spec, again.ordinal(), again.cvm(), "health monitor: " + again.reason(), admitting);
                }
            }
            List<String> notes = new ArrayList<>();
            // the one point where the round decides to act: an outage is no case for healing one slot
            OutageGuard.RoundDecision decision = outcome.mode() == HealthRound.Mode.MONITOR && !outcome.availability().isEmpty()
                    ? outages.afterRound(spec, outcome.availability(), !outcome.unhealthy().isEmpty())
                    : new OutageGuard.RoundDecision(true, null);
            if (decision.healsAllowed()) {
                for (Judgement judgement : outcome.unhealthy()) {
                    notes.add(heal(spec, judgement, engine));
                }
            } else {
                notes.add(decision.note());
            }
            String stage = outcome.stage() == null ? null
                    : outcome.stage() + (notes.isEmpty() ? "" : "; " + String.join("; ", notes));
            if (stage != null && !stage.equals(lastStage)) {
                leases.saveStage(spec.getName(), stage, clock.instant());
            }
            return new Applied(true, stage == null ? lastStage : stage, waiting);
        });
        if (applied.held()) {
            stopAgain(spec, outcome);
        }
        return applied;
    }

    /**
     * The registry rows that changed, except those a procedure took over since the round's reads (looked at again
     * under the set's lock): the procedure records its own slots.
     */
    private void saveRecords(ReplicaSetSpec spec, HealthRound.Outcome outcome, HealStarter.Snapshot engine,
                             Map<String, String> admitting) {
        for (Map.Entry<Integer, InstanceRecord> changed : outcome.recordsToSave().entrySet()) {
            int ordinal = changed.getKey();
            if (engine.holderOf(spec, ordinal) == null && !admitting.containsKey(HealVariables.businessKey(spec.getName(), ordinal))) {
                registry.save(changed.getValue());
            }
        }
    }

    private String heal(ReplicaSetSpec spec, Judgement judgement, HealStarter.Snapshot engine) {
        SlotHealth health = judgement.health();
        String slot = spec.slotName(health.ordinal());
        HealStarter.Outcome outcome = heals.start(spec, health.ordinal(), "health monitor: " + judgement.reason(),
                HealVariables.TRIGGER_MONITOR, "health monitor", engine, true);
        if (outcome instanceof HealStarter.Started started) {
            return slot + " unhealthy (" + judgement.reason() + "): heal " + started.processInstanceId() + " started";
        }
        if (outcome instanceof HealStarter.AlreadyHealing running) {
            return slot + " unhealthy: heal " + running.processInstanceId() + " is running";
        }
        if (outcome instanceof HealStarter.HeldByRollout rollout) {
            return slot + " unhealthy: rollout " + rollout.processInstanceId() + " is working on it";
        }
        if (outcome instanceof HealStarter.InOutage outage) {
            return slot + " unhealthy: not healed, " + outage.refusal();
        }
        HealStarter.OverBudget budget = (HealStarter.OverBudget) outcome;
        return slot + " unhealthy: waiting, " + budget.running() + " of " + budget.maxConcurrent()
                + " concurrent heals of the set running (autoHealing.maxConcurrent)";
    }

    /**
     * A fenced CVM under on-failure STOP that runs again (someone started it behind our back) is stopped again: once per
     * run of it, through its intent ({@link PhalaEffects#stopUntilItHolds}), so two rounds, or two nodes, never stop one
     * run twice.
     */
    private void stopAgain(ReplicaSetSpec spec, HealthRound.Outcome outcome) {
        for (AdmissionEnforcer.Fenced fenced : outcome.stopAgain()) {
            String slot = fenced.stopAgain().name();
            try {
                EffectOutcome stopped = effects.stopUntilItHolds(EffectScope.outside("monitor-fence", spec.getName(), slot,
                        String.valueOf(fenced.stopAgain().instanceId())), fenced.stopAgain());
                log.warn("{} is fenced but its CVM {} was running again: {}", slot, fenced.stopAgain().id(), stopped.text());
            } catch (PhalaApiException e) {
                log.warn("{} is fenced but its CVM {} runs, and the stop was not taken (next round tries again): {}", slot,
                        fenced.stopAgain().id(), e.getMessage());
            }
        }
    }
}
