package com.statefulcvm.delegates.heal;

import com.statefulcvm.delegates.procedure.HealStarter;
import com.statefulcvm.connectors.health.ProbeResult;
import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.fleet.InstanceRecord;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.healing.HealthTracker.Verdict;
import com.statefulcvm.fleet.healing.SlotHealth;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

import static com.statefulcvm.delegates.heal.RoundFixture.NOW;
import static com.statefulcvm.delegates.heal.RoundFixture.cvm;
import static com.statefulcvm.delegates.heal.RoundFixture.down;
import static com.statefulcvm.delegates.heal.RoundFixture.ok;
import static com.statefulcvm.delegates.heal.RoundFixture.record;
import static com.statefulcvm.delegates.heal.RoundFixture.running;
import static com.statefulcvm.delegates.heal.RoundFixture.set;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * One health round, without any I/O: what it probes, how it judges, and above all what it writes and starts: nothing
 * when nothing changed, a heal only at the unhealthy threshold, never a held slot's registry row.
 */
class HealthRoundTest {

    private static final Instant ATTESTED_AT = NOW.minusSeconds(3600);
    private static final Instant BOOTED_AT = NOW.minusSeconds(7200);

    private final ReplicaSetSpec spec = set("web", 3);
    private final Map<Integer, CvmInfo> cvms = new LinkedHashMap<>();
    private final Map<Integer, InstanceRecord> records = new HashMap<>();
    private final Map<Integer, SlotHealth> known = new HashMap<>();
    private final Map<Integer, Instant> boots = new HashMap<>();
    private HealStarter.Snapshot engine = new HealStarter.Snapshot(new LinkedHashMap<>(), new HashMap<>());
    private final Map<String, String> admitting = new HashMap<>();

    @BeforeEach
    void aHealthySteadySet() {
        spec.getAutoHealing().setInitialDelaySeconds(60);
        for (int ordinal = 0; ordinal < 3; ordinal++) {
            CvmInfo cvm = running("web-" + ordinal, "inst-" + ordinal);
            cvms.put(ordinal, cvm);
            records.put(ordinal, record(cvm, ordinal, true, true, ATTESTED_AT));
            known.put(ordinal, new SlotHealth("web", ordinal, 0, "inst-" + ordinal, "inst-" + ordinal, "running", true, 0, 2,
                    NOW.minusSeconds(10), "HTTP 200", NOW.minusSeconds(3000), NOW.minusSeconds(3500), null, null));
            boots.put(ordinal, BOOTED_AT);
        }
    }

    private HealthRound.Plan plan(HealthRound.Mode mode) {
        return HealthRound.plan(new HealthRound.Inputs(spec, mode, cvms, boots, records, known, Map.of(), Map.of(), engine, admitting, NOW));
    }

    private HealthRound.Outcome round(Map<Integer, ProbeResult> probes) {
        return HealthRound.judge(plan(HealthRound.Mode.MONITOR), probes);
    }

    private static Map<Integer, ProbeResult> allOk() {
        return Map.of(0, ok(), 1, ok(), 2, ok());
    }

    @Test
    void aRoundThatFindsEverythingAsBeforeWritesNothingAndStartsNothing() {
        HealthRound.Plan plan = plan(HealthRound.Mode.MONITOR);
        assertThat(plan.probes()).containsOnlyKeys(0, 1, 2);

        HealthRound.Outcome outcome = HealthRound.judge(plan, allOk());

        assertThat(outcome.writes()).isFalse();
        assertThat(outcome.recordsToSave()).isEmpty();
        assertThat(outcome.healthToSave()).as("a probe time and a longer streak are not worth a write").isEmpty();
        assertThat(outcome.newIdentities()).isEmpty();
        assertThat(outcome.stage()).isEqualTo("3 of 3 healthy");
        assertThat(outcome.records()).hasSize(3);
    }

    @Test
    void theFirstRoundRecordsEverySlotBindsItsEpochAndReattestsWhatWasNeverAttested() {
        records.clear();
        known.clear();
        HealthRound.Plan plan = plan(HealthRound.Mode.MONITOR);
        assertThat(plan.probes()).as("not admitted yet: not probed").isEmpty();

        HealthRound.Outcome outcome = HealthRound.judge(plan, Map.of());

        assertThat(outcome.recordsToSave()).containsOnlyKeys(0, 1, 2);
        assertThat(outcome.recordsToSave().get(0).status()).isEqualTo("running");
        assertThat(outcome.healthToSave()).hasSize(3);
        assertThat(outcome.newIdentities()).containsEntry(0, "inst-0").containsEntry(2, "inst-2");
        assertThat(outcome.reattest()).extracting(r -> r.ordinal()).containsExactly(0, 1, 2);
        assertThat(outcome.healthToSave().get(0).lastResult()).startsWith("held: not admitted (no attestation of its current boot)");
        assertThat(outcome.unhealthy()).isEmpty();
    }

    @Test
    void aCrashedInstanceFailsWithoutAProbeAndIsDueForAHealAtTheThreshold() {
        CvmInfo crashed = cvm("web-1", "inst-1", "stopped", false);
        cvms.put(1, crashed);
        HealthRound.Outcome first = HealthRound.judge(plan(HealthRound.Mode.MONITOR), Map.of(0, ok(), 2, ok()));
        assertThat(plan(HealthRound.Mode.MONITOR).probes()).doesNotContainKey(1);
        assertThat(first.recordsToSave().get(1).status()).isEqualTo("stopped");
        assertThat(first.recordsToSave().get(1).healthy()).isFalse();
        SlotHealth once = first.healthToSave().stream().filter(h -> h.ordinal() == 1).findFirst().orElseThrow();
        assertThat(once.consecutiveFailures()).isEqualTo(1);
        assertThat(first.unhealthy()).isEmpty();
        assertThat(first.stage()).contains("web-1 1 of 3 failed health checks in a row; last: CVM status stopped");

        known.put(1, once.observed(once.instanceId(), "stopped", once.healthy(), 2, 0, NOW, "CVM status stopped",
                once.lastChangeAt(), null));
        records.put(1, first.recordsToSave().get(1));
        HealthRound.Outcome third = HealthRound.judge(plan(HealthRound.Mode.MONITOR), Map.of(0, ok(), 2, ok()));
        assertThat(third.unhealthy()).hasSize(1);
        assertThat(third.unhealthy().get(0).verdict()).isEqualTo(Verdict.UNHEALTHY);
        assertThat(third.unhealthy().get(0).reason()).startsWith("3 consecutive failed health checks (unhealthy threshold 3)");
        assertThat(third.writes()).isTrue();
    }

    @Test
    void anUnhealthyProbeCountsAndItsRegistryRowSaysSo() {
        HealthRound.Outcome outcome = round(Map.of(0, ok(), 1, down(), 2, ok()));
        assertThat(outcome.recordsToSave()).containsOnlyKeys(1);
        assertThat(outcome.recordsToSave().get(1).condition()).isEqualTo("Unhealthy: expected HTTP 200 but got 503");
        assertThat(outcome.healthToSave()).singleElement().satisfies(h -> {
            assertThat(h.ordinal()).isEqualTo(1);
            assertThat(h.consecutiveFailures()).isEqualTo(1);
            assertThat(h.consecutiveSuccesses()).isZero();
        });
    }

    @Test
    void aSlotARolloutWorksOnIsHeldNotProbedAndItsRowLeftToTheRollout() {
        engine = new HealStarter.Snapshot(new LinkedHashMap<>(), new HashMap<>(Map.of("web-2", "rollout-1")));
        cvms.put(2, cvm("web-2", "inst-2", "updating", true));
        HealthRound.Plan plan = plan(HealthRound.Mode.MONITOR);
        assertThat(plan.held()).containsEntry(2, "rollout rollout-1 is working on web-2");
        assertThat(plan.probes()).doesNotContainKey(2);

        HealthRound.Outcome outcome = HealthRound.judge(plan, Map.of(0, ok(), 1, ok()));

        assertThat(outcome.recordsToSave()).as("the rollout records its own slot").isEmpty();
        assertThat(outcome.unhealthy()).isEmpty();
        assertThat(outcome.healthToSave()).singleElement().satisfies(h ->
                assertThat(h.lastResult()).isEqualTo("held: rollout rollout-1 is working on web-2"));
    }

    @Test
    void healsAndReattestationsHoldTheirSlotsToo() {
        engine = new HealStarter.Snapshot(new LinkedHashMap<>(Map.of("web/0", "heal-1")), new HashMap<>());
        admitting.put("web/1", "admit-1");
        HealthRound.Plan plan = plan(HealthRound.Mode.MONITOR);
        assertThat(plan.held()).containsEntry(0, "heal heal-1 is working on web-0").containsEntry(1, "re-attestation admit-1 is working on web-1");
        assertThat(plan.probes()).containsOnlyKeys(2);
    }

    @Test
    void aFailureWithinTheInitialDelayOfARestartIsNotCounted() {
        known.put(1, known.get(1).observed("inst-1", "restarting", true, 0, 2, NOW.minusSeconds(10), "busy", NOW.minusSeconds(10), null));
        HealthRound.Outcome outcome = round(Map.of(0, ok(), 1, down(), 2, ok()));
        SlotHealth one = outcome.healthToSave().stream().filter(h -> h.ordinal() == 1).findFirst().orElseThrow();
        assertThat(one.consecutiveFailures()).isZero();
        assertThat(one.startedAt()).as("running again after another status: a (re)start").isEqualTo(NOW);
        assertThat(one.lastResult()).startsWith("starting: failure not counted within the initial delay of 60 s");
        assertThat(outcome.unhealthy()).isEmpty();
    }

    @Test
    void anOperationUnderWayIsNotCounted() {
        cvms.put(0, cvm("web-0", "inst-0", "restarting", true));
        HealthRound.Plan plan = plan(HealthRound.Mode.MONITOR);
        assertThat(plan.probes()).doesNotContainKey(0);
        HealthRound.Outcome outcome = HealthRound.judge(plan, Map.of(1, ok(), 2, ok()));
        assertThat(outcome.stage()).contains("web-0 busy: restarting (operation in progress)");
        assertThat(outcome.healthToSave().get(0).consecutiveFailures()).isZero();
    }

    @Test
    void anEmptySlotIsAFailureAndANewIdentityMovesTheEpoch() {
        cvms.remove(2);
        HealthRound.Outcome gone = round(Map.of(0, ok(), 1, ok()));
        assertThat(gone.recordsToSave().get(2).status()).isEqualTo("missing");
        assertThat(gone.healthToSave()).singleElement().satisfies(h -> assertThat(h.consecutiveFailures()).isEqualTo(1));

        cvms.put(2, running("web-2", "inst-2b"));
        HealthRound.Outcome replaced = round(Map.of(0, ok(), 1, ok(), 2, ok()));
        assertThat(replaced.newIdentities()).containsExactly(Map.entry(2, "inst-2b"));
    }

    @Test
    void aRecoveringSlotWritesUntilItIsHealthyAgainAndThenStops() {
        known.put(0, known.get(0).observed("inst-0", "running", false, 0, 0, NOW.minusSeconds(10), "x", NOW.minusSeconds(10),
                NOW.minusSeconds(3500)));
        HealthRound.Outcome first = round(allOk());
        SlotHealth once = first.healthToSave().get(0);
        assertThat(once.consecutiveSuccesses()).isEqualTo(1);
        assertThat(first.stage()).contains("recovering: 1 of 2 good health checks");
        known.put(0, once);
        HealthRound.Outcome second = round(allOk());
        assertThat(second.healthToSave().get(0).healthy()).isTrue();
        known.put(0, second.healthToSave().get(0));
        assertThat(round(allOk()).healthToSave()).as("healthy and staying so").isEmpty();
    }

    @Test
    void worthWritingIgnoresTheProbeTimeAndTheStreakBeyondTheThresholdOnly() {
        SlotHealth before = known.get(0);
        SlotHealth later = before.observed("inst-0", "running", true, 0, 7, NOW, "HTTP 200", before.lastChangeAt(), before.startedAt());
        assertThat(HealthRound.worthWriting(before, later, 2)).isFalse();
        assertThat(HealthRound.worthWriting(before, later, 10)).as("below the threshold the count matters").isTrue();
        SlotHealth otherResult = before.observed("inst-0", "running", true, 0, 2, NOW, "HTTP 204", before.lastChangeAt(), before.startedAt());
        assertThat(HealthRound.worthWriting(before, otherResult, 2)).isTrue();
    }

    @Test
    void anInstanceRestartedBehindOurBackIsReattestedNotProbedAndItsVerdictForgotten() {
        boots.put(1, ATTESTED_AT.plusSeconds(60));
        HealthRound.Plan plan = plan(HealthRound.Mode.MONITOR);
        assertThat(plan.probes()).doesNotContainKey(1);
        HealthRound.Outcome outcome = HealthRound.judge(plan, Map.of(0, ok(), 2, ok()));
        assertThat(outcome.reattest()).singleElement().satisfies(r -> assertThat(r.ordinal()).isEqualTo(1));
        assertThat(outcome.recordsToSave().get(1).attested()).isNull();
        assertThat(outcome.healthToSave()).singleElement().satisfies(h ->
                assertThat(h.lastResult()).startsWith("held: not admitted (restarted since its last attestation"));
    }

    @Test
    void observingASetWithoutAutoHealingKeepsTheRegistryCurrentAndJudgesNothing() {
        records.clear();
        HealthRound.Plan plan = plan(HealthRound.Mode.OBSERVE);
        assertThat(plan.probes()).as("no admission in an observation").containsOnlyKeys(0, 1, 2);
        HealthRound.Outcome outcome = HealthRound.judge(plan, Map.of(0, ok(), 1, down(), 2, ok()));
        assertThat(outcome.recordsToSave()).containsOnlyKeys(0, 1, 2);
        assertThat(outcome.recordsToSave().get(1).healthy()).isFalse();
        assertThat(outcome.healthToSave()).isEmpty();
        assertThat(outcome.unhealthy()).isEmpty();
        assertThat(outcome.reattest()).isEmpty();
        assertThat(outcome.stage()).isNull();
    }

    @Test
    void aSetThatCouldNotBeReadCountsNothing() {
        HealthRound.Outcome outcome = HealthRound.Outcome.unreadable(spec, HealthRound.Mode.MONITOR, "HTTP 503");
        assertThat(outcome.writes()).isFalse();
        assertThat(outcome.stage()).isEqualTo("could not list the set's CVMs, nothing counted: HTTP 503");
    }
}
