package com.statefulcvm.web.healing;

import com.statefulcvm.connectors.health.ProbeResult;
import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.connectors.phala.model.Gateway;
import com.statefulcvm.delegates.heal.HealthRound;
import com.statefulcvm.delegates.procedure.AdmissionStarter;
import com.statefulcvm.delegates.procedure.HealStarter;
import com.statefulcvm.delegates.support.ReplicaSets;
import com.statefulcvm.fleet.InstanceRecord;
import com.statefulcvm.fleet.InstanceRegistry;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.admission.FenceRegistry;
import com.statefulcvm.fleet.admission.RefusalRegistry;
import com.statefulcvm.fleet.healing.SlotHealthRegistry;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.mockito.ArgumentCaptor;
import org.springframework.dao.DataAccessResourceFailureException;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyBoolean;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;

/**
 * How one round runs once the scheduler says it is due: the reads the due rounds share, then the set's own: what Phala
 * shows, counters and fences (monitored sets only), the probes, the judgement handed to {@link RoundEffects}, and what
 * the set remembers for its next round; a round that fails or cannot read its set is over all the same.
 */
class RoundRunnerTest {

    private static final Instant NOW = Instant.parse("2026-11-27T02:30:00Z");
    private static final int FULL_LIST_EVERY = 6;

    private final ReplicaSets replicaSets = mock(ReplicaSets.class);
    private final InstanceRegistry registry = mock(InstanceRegistry.class);
    private final SlotHealthRegistry slotHealth = mock(SlotHealthRegistry.class);
    private final FenceRegistry fences = mock(FenceRegistry.class);
    private final RefusalRegistry refusals = mock(RefusalRegistry.class);
    private final HealStarter heals = mock(HealStarter.class);
    private final AdmissionStarter admissions = mock(AdmissionStarter.class);
    private final CvmSightings sightings = mock(CvmSightings.class);
    private final ProbeLimiter probes = mock(ProbeLimiter.class);
    private final RoundEffects effects = mock(RoundEffects.class);
    private final RoundRunner runner = new RoundRunner(replicaSets, registry, slotHealth, fences, refusals, heals, admissions, sightings,
            probes, effects, FULL_LIST_EVERY, Runnable::run);

    private final ReplicaSetSpec spec = new ReplicaSetSpec();
    private final CvmInfo db0 = cvm(0);
    private final CvmInfo db1 = cvm(1);
    private final RoundRunner.Memory memory = new RoundRunner.Memory();
    private final RoundRunner.Shared shared = new RoundRunner.Shared(Map.of("db", spec),
            Map.of("db", new HealStarter.Snapshot(Map.of(), Map.of())), Map.of("db", Map.of()), Map.of("db", Map.of()),
            new CvmSightings.Statuses(Map.of(), false, 1));

    @BeforeEach
    void setUp() {
        spec.setName("db");
        spec.setReplicas(2);
        spec.getAttestation().setRequired(false);
        memory.stage = "2 of 2 healthy";
        when(sightings.sight(eq(spec), any(), eq(shared.statuses()), eq(FULL_LIST_EVERY), eq(NOW)))
                .thenReturn(new CvmSightings.Sighting(Map.of(0, db0, 1, db1), Map.of(), true, null));
        when(probes.probe(spec, db0)).thenReturn(CompletableFuture.completedFuture(probe(true)));
        when(probes.probe(spec, db1)).thenReturn(CompletableFuture.completedFuture(probe(false)));
        when(effects.apply(eq("node-a"), eq(spec), any(), any(), anyBoolean()))
                .thenReturn(new RoundEffects.Applied(true, "1 of 2 healthy", false));
    }

    private static CvmInfo cvm(int ordinal) {
        return new CvmInfo("cvm-" + ordinal, "db-" + ordinal, "a".repeat(40), "vm-db-" + ordinal, "inst-" + ordinal, "running",
                false, null, "hash", null, null, null, null, new Gateway("sim.local", null), null, null, null, null, null, null, null);
    }

    private static ProbeResult probe(boolean healthy) {
        return new ProbeResult(healthy, healthy ? 200 : 503, healthy ? "HTTP 200" : "HTTP 503", Duration.ofMillis(1));
    }

    private static InstanceRecord row(String set, int ordinal, String vmUuid) {
        InstanceRecord empty = InstanceRecord.emptySlot(set, ordinal);
        return new InstanceRecord(set, ordinal, empty.slot(), null, vmUuid, null, null, null, null, null, null, null, null, null);
    }

    private HealthRound.Outcome applied() {
        ArgumentCaptor<HealthRound.Outcome> outcome = ArgumentCaptor.forClass(HealthRound.Outcome.class);
        verify(effects).apply(eq("node-a"), eq(spec), outcome.capture(), any(), anyBoolean());
        return outcome.getValue();
    }

    @Test
    void theDueRoundsShareOneReadOfTheEngineTheRegistryAndOneStatusBatch() {
        ReplicaSetSpec listedBefore = new ReplicaSetSpec();
        ReplicaSetSpec neverListed = new ReplicaSetSpec();
        when(replicaSets.exists("a")).thenReturn(true);
        when(replicaSets.exists("b")).thenReturn(true);
        when(replicaSets.spec("a")).thenReturn(listedBefore);
        when(replicaSets.spec("b")).thenReturn(neverListed);
        when(registry.instances("a")).thenReturn(List.of(row("a", 0, "vm-a-old")));
        when(registry.instances("b")).thenReturn(List.of(row("b", 0, "vm-b-0"), row("b", 1, null)));
        RoundRunner.Memory seen = new RoundRunner.Memory();
        seen.lastSeen = new CvmSightings.LastSeen(Map.of(0, cvm(0)), Map.of(), 1);
        Map<String, RoundRunner.Memory> due = new LinkedHashMap<>();
        due.put("a", seen);
        due.put("gone", new RoundRunner.Memory());
        due.put("b", new RoundRunner.Memory());

        RoundRunner.Shared read = runner.read(due);

        assertThat(read.specs()).containsExactly(Map.entry("a", listedBefore), Map.entry("b", neverListed));
        assertThat(read.records().get("b")).containsOnlyKeys(0, 1);
        verify(heals).snapshots(Set.of("a", "b"));
        verify(registry, never()).instances("gone");
        @SuppressWarnings("unchecked")
        ArgumentCaptor<Collection<String>> vms = ArgumentCaptor.forClass(Collection.class);
        verify(sightings).statuses(vms.capture());
        assertThat(vms.getValue()).as("a set listed before by what it last saw, the others by their rows")
                .containsExactly("vm-db-0", "vm-b-0");
    }

    @Test
    void aMonitoredSetIsProbedJudgedAndItsOutcomeAppliedAndRemembered() {
        CompletableFuture<Void> over = runner.run("node-a", spec, HealthRound.Mode.MONITOR, memory, shared, NOW);

        assertThat(over).isCompleted();
        verify(slotHealth).all("db");
        verify(fences).fences("db");
        verify(effects).apply(eq("node-a"), eq(spec), any(), eq("2 of 2 healthy"), eq(true));
        HealthRound.Outcome outcome = applied();
        assertThat(outcome.mode()).isEqualTo(HealthRound.Mode.MONITOR);
        assertThat(outcome.records()).extracting(InstanceRecord::healthy).containsExactly(true, false);
        assertThat(memory.stage).isEqualTo("1 of 2 healthy");
        assertThat(memory.conditionsWaiting).isFalse();
        assertThat(memory.lastSeen.cvms()).containsOnlyKeys(0, 1);
    }

    @Test
    void anObservedSetReadsNoHealthCountersNorFences() {
        assertThat(runner.run("node-a", spec, HealthRound.Mode.OBSERVE, memory, shared, NOW)).isCompleted();

        verifyNoInteractions(slotHealth, fences);
        assertThat(applied().mode()).isEqualTo(HealthRound.Mode.OBSERVE);
    }

    @Test
    void theRoundGoesOnOnlyOnceItsProbesHaveAnswered() {
        CompletableFuture<ProbeResult> slow = new CompletableFuture<>();
        when(probes.probe(spec, db1)).thenReturn(slow);

        CompletableFuture<Void> over = runner.run("node-a", spec, HealthRound.Mode.MONITOR, memory, shared, NOW);

        assertThat(over).isNotDone();
        verifyNoInteractions(effects);
        slow.complete(probe(true));
        assertThat(over).isCompleted();
        assertThat(applied().records()).extracting(InstanceRecord::healthy).containsExactly(true, true);
    }

    @Test
    void aSetThatCouldNotBeListedCountsNothingAndKeepsWhatItLastSaw() {
        CvmSightings.LastSeen before = new CvmSightings.LastSeen(Map.of(0, db0), Map.of(), 2);
        memory.lastSeen = before;
        when(sightings.sight(eq(spec), eq(before), any(), anyInt(), any()))
                .thenReturn(new CvmSightings.Sighting(null, Map.of(), true, "HTTP 503"));

        assertThat(runner.run("node-a", spec, HealthRound.Mode.MONITOR, memory, shared, NOW)).isCompleted();

        assertThat(applied()).isEqualTo(HealthRound.Outcome.unreadable(spec, HealthRound.Mode.MONITOR, "HTTP 503"));
        verifyNoInteractions(probes, slotHealth, fences);
        assertThat(memory.lastSeen).isSameAs(before);
        assertThat(memory.stage).isEqualTo("1 of 2 healthy");
    }

    @Test
    void aRoundThatFailsIsOverAllTheSameAndLeavesItsStageAsItWas() {
        when(effects.apply(anyString(), any(), any(), any(), anyBoolean()))
                .thenThrow(new DataAccessResourceFailureException("database restarting"));

        assertThat(runner.run("node-a", spec, HealthRound.Mode.MONITOR, memory, shared, NOW)).isCompleted();
        assertThat(memory.stage).isEqualTo("2 of 2 healthy");
        assertThat(memory.conditionsWaiting).isTrue();

        when(slotHealth.all("db")).thenThrow(new DataAccessResourceFailureException("database restarting"));
        assertThat(runner.run("node-a", spec, HealthRound.Mode.MONITOR, memory, shared, NOW)).isCompleted();
    }
}
