package com.statefulcvm.web.healing;

import com.statefulcvm.connectors.phala.PhalaApiException;
import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.connectors.phala.model.Gateway;
import com.statefulcvm.delegates.admission.AdmissionEnforcer;
import com.statefulcvm.delegates.heal.HealthRound;
import com.statefulcvm.delegates.procedure.AdmissionStarter;
import com.statefulcvm.delegates.procedure.HealStarter;
import com.statefulcvm.delegates.procedure.HealVariables;
import com.statefulcvm.delegates.procedure.OutageGuard;
import com.statefulcvm.delegates.support.EffectOutcome;
import com.statefulcvm.delegates.support.EffectScope;
import com.statefulcvm.delegates.support.PhalaEffects;
import com.statefulcvm.fleet.InstanceRecord;
import com.statefulcvm.fleet.InstanceRegistry;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.budget.SlotAvailability;
import com.statefulcvm.fleet.healing.HealthTracker.Judgement;
import com.statefulcvm.fleet.healing.HealthTracker.Verdict;
import com.statefulcvm.fleet.healing.MonitorLeases;
import com.statefulcvm.fleet.healing.SlotHealth;
import com.statefulcvm.fleet.healing.SlotHealthRegistry;
import com.statefulcvm.web.status.ObservedConditions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.mockito.InOrder;
import org.springframework.transaction.PlatformTransactionManager;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyBoolean;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.ArgumentMatchers.anyList;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.ArgumentMatchers.same;
import static org.mockito.Mockito.inOrder;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;

/**
 * What a round's outcome leads to, one test a branch of {@link RoundEffects#apply}: the quiet round that opens no
 * transaction, the node that lost the set, the writes a procedure's slots are spared, re-attestations, the outage
 * decision that holds heals back, each answer of a heal start, the stage, and the fenced CVM stopped again.
 */
class RoundEffectsTest {

    private static final String NODE = "node-a";
    private static final String SET = "db";
    private static final String STEADY = "2 of 2 healthy";
    private static final Instant NOW = Instant.parse("2026-11-27T02:00:00Z");

    private final MonitorLeases leases = mock(MonitorLeases.class);
    private final InstanceRegistry registry = mock(InstanceRegistry.class);
    private final SlotHealthRegistry slotHealth = mock(SlotHealthRegistry.class);
    private final ObservedConditions conditions = mock(ObservedConditions.class);
    private final HealStarter heals = mock(HealStarter.class);
    private final OutageGuard outages = mock(OutageGuard.class);
    private final AdmissionStarter admissions = mock(AdmissionStarter.class);
    private final PhalaEffects phala = mock(PhalaEffects.class);
    private final PlatformTransactionManager transactions = mock(PlatformTransactionManager.class);
    private final RoundEffects effects = new RoundEffects(leases, registry, slotHealth, conditions, heals, outages, admissions,
            phala, transactions, Clock.fixed(NOW, ZoneOffset.UTC));

    private final ReplicaSetSpec spec = new ReplicaSetSpec();
    private final Map<String, String> healsByKey = new HashMap<>();
    private final Map<String, String> rolloutsBySlot = new HashMap<>();
    private final HealStarter.Snapshot engine = new HealStarter.Snapshot(healsByKey, rolloutsBySlot);
    private final Map<String, String> admitting = new HashMap<>();

    @BeforeEach
    void setUp() {
        spec.setName(SET);
        spec.setReplicas(4);
        when(leases.lockIfHeld(SET, NODE)).thenReturn(true);
        when(heals.snapshot(SET)).thenReturn(engine);
        when(admissions.running(SET)).thenReturn(admitting);
        when(outages.afterRound(any(), anyList(), anyBoolean())).thenReturn(new OutageGuard.RoundDecision(true, null));
    }

    /** A round's outcome, by default a MONITOR round that found both slots up and changed nothing. */
    private final class Round {
        HealthRound.Mode mode = HealthRound.Mode.MONITOR;
        final Map<Integer, InstanceRecord> recordsToSave = new TreeMap<>();
        final List<SlotHealth> healthToSave = new ArrayList<>();
        final Map<Integer, String> newIdentities = new TreeMap<>();
        final List<Judgement> unhealthy = new ArrayList<>();
        final List<AdmissionEnforcer.Reattest> reattest = new ArrayList<>();
        final List<AdmissionEnforcer.Fenced> stopAgain = new ArrayList<>();
        String stage = STEADY;
        List<SlotAvailability> availability = new ArrayList<>(List.of(SlotAvailability.up(0, "db-0"), SlotAvailability.up(1, "db-1")));

        HealthRound.Outcome outcome() {
            return new HealthRound.Outcome(SET, mode, recordsToSave, List.copyOf(recordsToSave.values()), healthToSave,
                    newIdentities, unhealthy, reattest, stopAgain, stage, availability);
        }

        RoundEffects.Applied apply(String lastStage, boolean conditionsWaiting) {
            return effects.apply(NODE, spec, outcome(), lastStage, conditionsWaiting);
        }
    }

    private static CvmInfo cvm(int ordinal) {
        return new CvmInfo("cvm-" + ordinal, SET + "-" + ordinal, "a".repeat(40), "vm-" + ordinal, "inst-" + ordinal, "running",
                false, null, "hash", null, null, null, null, new Gateway("sim.local", null), null, null, null, null, null, null, null);
    }

    private static InstanceRecord row(int ordinal) {
        return InstanceRecord.emptySlot(SET, ordinal);
    }

    private static Judgement unhealthy(int ordinal) {
        return new Judgement(SlotHealth.first(SET, ordinal), Verdict.UNHEALTHY, "3 consecutive failed health checks");
    }

    private Round failingSlot1() {
        Round round = new Round();
        round.unhealthy.add(unhealthy(1));
        round.stage = "1 of 2 healthy";
        return round;
    }

    @Test
    void aRoundThatChangedNothingOpensNoTransactionAndKeepsTheStage() {
        RoundEffects.Applied applied = new Round().apply(STEADY, false);

        assertThat(applied).isEqualTo(new RoundEffects.Applied(true, STEADY, false));
        verifyNoInteractions(transactions, leases, registry, slotHealth, conditions, heals, admissions, phala);
    }

    @Test
    void aQuietRoundStillStopsAFencedCvmThatRunsAgain() {
        Round round = new Round();
        CvmInfo running = cvm(1);
        round.stopAgain.add(new AdmissionEnforcer.Fenced(1, "attestation refused", running));
        when(phala.stopUntilItHolds(any(), any())).thenReturn(mock(EffectOutcome.class));

        round.apply(STEADY, false);

        verify(phala).stopUntilItHolds(EffectScope.outside("monitor-fence", SET, "db-1", "inst-1"), running);
        verifyNoInteractions(transactions);
    }

    @Test
    void eachReasonToLookAgainOpensTheTransaction() {
        Round changedStage = new Round();
        changedStage.stage = "1 of 2 healthy; db-1 starting";
        assertThat(changedStage.apply(STEADY, false).stage()).isEqualTo("1 of 2 healthy; db-1 starting");

        Round changedRecord = new Round();
        changedRecord.recordsToSave.put(0, row(0));
        changedRecord.apply(STEADY, false);

        Round health = new Round();
        health.healthToSave.add(SlotHealth.first(SET, 0));
        health.apply(STEADY, false);

        new Round().apply(STEADY, true); // the previous round left conditions that change with time

        verify(leases, times(4)).lockIfHeld(SET, NODE);
    }

    @Test
    void aSetThatMayBeInAnOutageIsLookedAtEvenWhenNothingChanged() {
        Round round = new Round();
        when(outages.mayBeInOutage(spec, round.availability)).thenReturn(true);
        when(outages.afterRound(spec, round.availability, false))
                .thenReturn(new OutageGuard.RoundDecision(false, "outage: 2 of 2 down"));

        RoundEffects.Applied applied = round.apply(STEADY, false);

        verify(outages).afterRound(spec, round.availability, false);
        assertThat(applied.stage()).isEqualTo(STEADY + "; outage: 2 of 2 down");
        verify(leases).saveStage(SET, STEADY + "; outage: 2 of 2 down", NOW);
    }

    @Test
    void everythingIsWrittenUnderTheSetsLockInOneTransaction() {
        Round round = new Round();
        round.recordsToSave.put(0, row(0));
        round.stage = "1 of 2 healthy";

        round.apply(STEADY, false);

        InOrder order = inOrder(transactions, leases, registry);
        order.verify(transactions).getTransaction(any());
        order.verify(leases).lockIfHeld(SET, NODE);
        order.verify(registry).save(row(0));
        order.verify(leases).saveStage(SET, "1 of 2 healthy", NOW);
        order.verify(transactions).commit(any());
    }

    @Test
    void aNodeThatNoLongerHoldsTheSetWritesAndStartsNothing() {
        when(leases.lockIfHeld(SET, NODE)).thenReturn(false);
        Round round = failingSlot1();
        round.recordsToSave.put(0, row(0));
        round.healthToSave.add(SlotHealth.first(SET, 0));
        round.newIdentities.put(0, "inst-0");
        round.reattest.add(new AdmissionEnforcer.Reattest(0, cvm(0), "attestation expired", null));
        round.stopAgain.add(new AdmissionEnforcer.Fenced(1, "refused", cvm(1)));

        RoundEffects.Applied applied = round.apply(STEADY, true);

        assertThat(applied).isEqualTo(new RoundEffects.Applied(false, STEADY, true));
        verifyNoInteractions(registry, slotHealth, conditions, phala);
        verify(heals, never()).start(any(), anyInt(), anyString(), anyString(), anyString(), any(), anyBoolean());
        verify(admissions, never()).start(any(), anyInt(), any(), anyString(), any());
        verify(leases, never()).saveStage(anyString(), anyString(), any());
    }

    @Test
    void changedRowsAreSavedExceptThoseOfSlotsAProcedureTookOver() {
        Round round = new Round();
        for (int ordinal = 0; ordinal < 4; ordinal++) {
            round.recordsToSave.put(ordinal, row(ordinal));
        }
        rolloutsBySlot.put("db-1", "rollout-1");
        healsByKey.put(HealVariables.businessKey(SET, 2), "heal-2");
        admitting.put(HealVariables.businessKey(SET, 3), "admit-3");

        round.apply(STEADY, false);

        verify(registry).save(row(0));
        verify(registry, times(1)).save(any());
    }

    @Test
    void healthCountersAndNewIdentitiesAreWritten() {
        Round round = new Round();
        SlotHealth zero = SlotHealth.first(SET, 0);
        SlotHealth one = SlotHealth.first(SET, 1);
        round.healthToSave.addAll(List.of(zero, one));
        round.newIdentities.put(1, "inst-1b");

        round.apply(STEADY, false);

        verify(slotHealth).saveObservation(zero);
        verify(slotHealth).saveObservation(one);
        verify(slotHealth).advanceEpoch(SET, 1, "inst-1b");
        verify(slotHealth, times(1)).advanceEpoch(anyString(), anyInt(), anyString());
    }

    @Test
    void theObservedConditionsAreTrackedOnlyWhileThereIsSomethingToTrack() {
        Round countersOnly = new Round();
        countersOnly.healthToSave.add(SlotHealth.first(SET, 0));
        assertThat(countersOnly.apply(STEADY, false).conditionsWaiting()).isFalse();
        verify(conditions, never()).track(any(), anyList());

        Round changedRow = new Round();
        changedRow.recordsToSave.put(0, row(0));
        when(conditions.track(spec, List.of(row(0)))).thenReturn(true);
        assertThat(changedRow.apply(STEADY, false).conditionsWaiting()).isTrue();

        when(conditions.track(spec, List.of())).thenReturn(false);
        assertThat(new Round().apply(STEADY, true).conditionsWaiting()).as("nothing waits any more").isFalse();
        verify(conditions, times(2)).track(any(), anyList());
    }

    @Test
    void aReattestationStartsWithTheRoundsReasonAndTheRunningOnes() {
        Round round = new Round();
        CvmInfo cvm = cvm(0);
        round.reattest.add(new AdmissionEnforcer.Reattest(0, cvm, "attestation older than 24h", null));

        round.apply(STEADY, false);

        verify(admissions).start(same(spec), eq(0), same(cvm), eq("health monitor: attestation older than 24h"), same(admitting));
    }

    /** A rollout or heal that took a slot since the round's reads attests it itself: the round starts no re-attestation of it. */
    @Test
    void noReattestationStartsForASlotAProcedureTookSinceTheRoundsReads() {
        Round round = new Round();
        round.reattest.add(new AdmissionEnforcer.Reattest(1, cvm(1), "no attestation of its current boot", null));
        round.reattest.add(new AdmissionEnforcer.Reattest(2, cvm(2), "no attestation of its current boot", null));
        round.reattest.add(new AdmissionEnforcer.Reattest(3, cvm(3), "no attestation of its current boot", null));
        rolloutsBySlot.put("db-1", "rollout-1");
        healsByKey.put(HealVariables.businessKey(SET, 2), "heal-2");

        round.apply(STEADY, false);

        verify(admissions).start(same(spec), eq(3), any(), anyString(), same(admitting));
        verify(admissions, times(1)).start(any(), anyInt(), any(), anyString(), any());
    }

    @Test
    void aSlotDueForAHealGetsOneHealStartAndTheStageSaysSo() {
        when(heals.start(any(), anyInt(), anyString(), anyString(), anyString(), any(), anyBoolean()))
                .thenReturn(new HealStarter.Started("heal-7"));
        Round round = failingSlot1();

        RoundEffects.Applied applied = round.apply(STEADY, false);

        verify(outages).afterRound(spec, round.availability, true);
        verify(heals, times(1)).start(spec, 1, "health monitor: 3 consecutive failed health checks", HealVariables.TRIGGER_MONITOR,
                "health monitor", engine, true);
        String stage = "1 of 2 healthy; db-1 unhealthy (3 consecutive failed health checks): heal heal-7 started";
        assertThat(applied).isEqualTo(new RoundEffects.Applied(true, stage, false));
        verify(leases).saveStage(SET, stage, NOW);
    }

    @Test
    void anOutageHoldsEveryHealBackAndTheStageSaysWhy() {
        Round round = failingSlot1();
        when(outages.afterRound(spec, round.availability, true))
                .thenReturn(new OutageGuard.RoundDecision(false, "outage: db-0, db-1 down; lights-out recovery proposed"));

        RoundEffects.Applied applied = round.apply(STEADY, false);

        verify(heals, never()).start(any(), anyInt(), anyString(), anyString(), anyString(), any(), anyBoolean());
        assertThat(applied.stage()).isEqualTo("1 of 2 healthy; outage: db-0, db-1 down; lights-out recovery proposed");
        verify(leases).saveStage(SET, applied.stage(), NOW);
    }

    @Test
    void eachRefusedHealStartIsSaidInTheStage() {
        Map<HealStarter.Outcome, String> said = Map.of(
                new HealStarter.AlreadyHealing("heal-3"), "db-1 unhealthy: heal heal-3 is running",
                new HealStarter.HeldByRollout("rollout-9"), "db-1 unhealthy: rollout rollout-9 is working on it",
                new HealStarter.InOutage("the set is in an outage"), "db-1 unhealthy: not healed, the set is in an outage",
                new HealStarter.OverBudget(1, 1),
                "db-1 unhealthy: waiting, 1 of 1 concurrent heals of the set running (autoHealing.maxConcurrent)");
        said.forEach((answer, note) -> {
            when(heals.start(any(), anyInt(), anyString(), anyString(), anyString(), any(), anyBoolean())).thenReturn(answer);
            assertThat(failingSlot1().apply(STEADY, false).stage()).as(answer.toString()).isEqualTo("1 of 2 healthy; " + note);
        });
    }

    @Test
    void anObservedSetAsksNoOutageDecisionAndKeepsItsStage() {
        Round round = new Round();
        round.mode = HealthRound.Mode.OBSERVE;
        round.stage = null;
        round.availability = List.of();
        round.recordsToSave.put(0, row(0));

        RoundEffects.Applied applied = round.apply(null, false);

        verify(registry).save(row(0));
        verify(outages, never()).afterRound(any(), anyList(), anyBoolean());
        verify(leases, never()).saveStage(any(), any(), any());
        assertThat(applied.held()).isTrue();
        assertThat(applied.stage()).isNull();
    }

    @Test
    void aSetThatCouldNotBeReadIsNoOutageAndItsSlotsAreNotHealed() {
        HealthRound.Outcome unreadable = HealthRound.Outcome.unreadable(spec, HealthRound.Mode.MONITOR, "HTTP 503");

        RoundEffects.Applied applied = effects.apply(NODE, spec, unreadable, STEADY, false);

        verify(outages, never()).afterRound(any(), anyList(), anyBoolean());
        assertThat(applied.stage()).isEqualTo("could not list the set's CVMs, nothing counted: HTTP 503");
        verify(leases).saveStage(SET, applied.stage(), NOW);
    }

    @Test
    void aStageAlreadyOnTheRowIsNotWrittenAgain() {
        Round round = new Round();
        round.recordsToSave.put(0, row(0));

        RoundEffects.Applied applied = round.apply(STEADY, false);

        verify(registry).save(row(0));
        verify(leases, never()).saveStage(any(), any(), any());
        assertThat(applied.stage()).isEqualTo(STEADY);
    }

    @Test
    void aFencedCvmIsStoppedAgainAfterTheRoundsWritesAndAFailedStopDoesNotStopTheNext() {
        Round round = new Round();
        round.recordsToSave.put(0, row(0));
        round.stopAgain.add(new AdmissionEnforcer.Fenced(1, "refused", cvm(1)));
        round.stopAgain.add(new AdmissionEnforcer.Fenced(2, "refused", cvm(2)));
        when(phala.stopUntilItHolds(eq(EffectScope.outside("monitor-fence", SET, "db-1", "inst-1")), any()))
                .thenThrow(new PhalaApiException(503, null, "busy", null, "POST", "/cvms/cvm-1/stop", null));
        when(phala.stopUntilItHolds(eq(EffectScope.outside("monitor-fence", SET, "db-2", "inst-2")), any()))
                .thenReturn(mock(EffectOutcome.class));

        RoundEffects.Applied applied = round.apply(STEADY, false);

        assertThat(applied.held()).isTrue();
        InOrder order = inOrder(transactions, phala);
        order.verify(transactions).commit(any());
        order.verify(phala).stopUntilItHolds(EffectScope.outside("monitor-fence", SET, "db-1", "inst-1"), cvm(1));
        order.verify(phala).stopUntilItHolds(EffectScope.outside("monitor-fence", SET, "db-2", "inst-2"), cvm(2));
    }
}
