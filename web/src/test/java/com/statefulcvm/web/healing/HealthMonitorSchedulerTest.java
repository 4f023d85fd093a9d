package com.statefulcvm.web.healing;

import com.statefulcvm.connectors.health.HealthProbe;
import com.statefulcvm.connectors.health.InstanceUrlTemplate;
import com.statefulcvm.connectors.health.ProbeResult;
import com.statefulcvm.connectors.phala.PhalaCloudClient;
import com.statefulcvm.connectors.phala.model.BatchStatus;
import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.connectors.phala.model.Gateway;
import com.statefulcvm.delegates.procedure.AdmissionStarter;
import com.statefulcvm.delegates.procedure.HealStarter;
import com.statefulcvm.delegates.support.InstanceHealth;
import com.statefulcvm.delegates.support.ReplicaSets;
import com.statefulcvm.fleet.FleetDefinition;
import com.statefulcvm.fleet.InstanceRecord;
import com.statefulcvm.fleet.InstanceRegistry;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.admission.FenceRegistry;
import com.statefulcvm.fleet.admission.RefusalRegistry;
import com.statefulcvm.fleet.scaling.ScaleRegistry;
import com.statefulcvm.web.config.HealingProperties;
import com.statefulcvm.web.config.OrchestratorProperties;
import com.statefulcvm.registry.JdbcMonitorLeases;
import com.statefulcvm.registry.JdbcSlotHealthRegistry;
import com.statefulcvm.registry.RegistryDatabase;
import com.statefulcvm.web.status.ObservedConditions;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.camunda.bpm.engine.RuntimeService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.support.StaticListableBeanFactory;

import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyBoolean;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.ArgumentMatchers.anyList;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.RETURNS_DEEP_STUBS;
import static org.mockito.Mockito.atLeastOnce;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

/**
 * The scheduler with everything real but Phala, the probes and the engine: rounds one interval apart with no Phala
 * call of a set's own once it is listed and nothing written while nothing changes, a heal started for an instance
 * that stays down, and two nodes on one database that split the sets, never run one set both, and take over each
 * other's sets when one stops.
 */
class HealthMonitorSchedulerTest {

    private final RegistryDatabase db = RegistryDatabase.h2();
    /** The test's sets name apps made elsewhere, adopted already: the monitor acts on them. */
    private static com.statefulcvm.fleet.adoption.Adoptions adopted() {
        return new com.statefulcvm.fleet.adoption.Adoptions() {
            @Override
            public java.util.Optional<com.statefulcvm.fleet.adoption.Adoption> adoption(String replicaSet) {
                return java.util.Optional.of(new com.statefulcvm.fleet.adoption.Adoption(replicaSet, "app-" + replicaSet, 1, "test",
                        java.time.Instant.EPOCH, "adopted", java.util.Map.of()));
            }

            @Override
            public void record(com.statefulcvm.fleet.adoption.Adoption adoption) {
            }
        };
    }

    private final JdbcMonitorLeases leases = new JdbcMonitorLeases(db.jdbc, db.transactions);
    private final JdbcSlotHealthRegistry slotHealth = new JdbcSlotHealthRegistry(db.jdbc, db.transactions);
    private final MemoryRegistry registry = new MemoryRegistry();
    private final PhalaCloudClient phala = mock(PhalaCloudClient.class);
    private final HealStarter heals = mock(HealStarter.class);
    private final AdmissionStarter admissions = mock(AdmissionStarter.class);
    private final FenceRegistry fences = mock(FenceRegistry.class);
    private final RefusalRegistry refusals = mock(RefusalRegistry.class);
    private final com.statefulcvm.delegates.procedure.OutageGuard outages = new com.statefulcvm.delegates.procedure.OutageGuard(
            new com.statefulcvm.registry.JdbcOutageRegistry(db.jdbc, db.transactions), mock(RuntimeService.class, RETURNS_DEEP_STUBS),
            Clock.systemUTC());
    private final ObservedConditions conditions = mock(ObservedConditions.class);
    /** Each set's CVMs as Phala reports them, by slot name; a test changes them to make faults. */
    private final Map<String, CvmInfo> cloud = new ConcurrentHashMap<>();
    /** While true, every read of the scale registry fails as during a restart of the orchestrator's database. */
    private final java.util.concurrent.atomic.AtomicBoolean databaseDown = new java.util.concurrent.atomic.AtomicBoolean();
    private final AtomicInteger refusedWhileDown = new AtomicInteger();
    private final ScaleRegistry scales = mock(ScaleRegistry.class);
    private final List<HealthMonitorScheduler> nodes = new ArrayList<>();
    private FleetDefinition fleet;

    @BeforeEach
    void setUp() {
        fleet = new FleetDefinition();
        List<ReplicaSetSpec> sets = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            ReplicaSetSpec spec = new ReplicaSetSpec();
            spec.setName("s" + i);
            spec.setReplicas(2);
            spec.setAppId("app-s" + i);
            spec.getHealthCheck().setIntervalSeconds(1);
            spec.getHealthCheck().setHealthyThreshold(1);
            spec.getHealthCheck().setUnhealthyThreshold(2);
            spec.getAutoHealing().setInitialDelaySeconds(0);
            spec.getAttestation().setRequired(false);
            sets.add(spec);
            for (int ordinal = 0; ordinal < 2; ordinal++) {
                cloud.put(spec.slotName(ordinal), cvm(spec.slotName(ordinal), "running"));
            }
        }
        fleet.setReplicaSets(sets);
        when(phala.listAppCvms(anyString())).thenAnswer(call -> {
            String set = call.<String>getArgument(0).substring("app-".length());
            return cloud.values().stream().filter(c -> c.name().startsWith(set + "-")).toList();
        });
        when(phala.statusBatch(anyList())).thenAnswer(call -> {
            Map<String, BatchStatus> answer = new HashMap<>();
            for (String vm : call.<List<String>>getArgument(0)) {
                cloud.values().stream().filter(c -> c.vmUuid().equals(vm)).findFirst().ifPresent(c ->
                        answer.put(vm, new BatchStatus(vm, c.status(), "1h", false, null, null, null, null, null)));
            }
            return answer;
        });
        when(heals.snapshots(any())).thenAnswer(call -> {
            Map<String, HealStarter.Snapshot> out = new HashMap<>();
            call.<Collection<String>>getArgument(0).forEach(s -> out.put(s, emptySnapshot()));
            return out;
        });
        when(heals.snapshot(anyString())).thenAnswer(call -> emptySnapshot());
        when(heals.start(any(), anyInt(), anyString(), anyString(), anyString(), any(), anyBoolean()))
                .thenReturn(new HealStarter.Started("heal-1"));
        when(admissions.running(any(Collection.class))).thenAnswer(call -> {
            Map<String, Map<String, String>> out = new HashMap<>();
            call.<Collection<String>>getArgument(0).forEach(s -> out.put(s, new HashMap<>()));
            return out;
        });
        when(admissions.running(anyString())).thenReturn(new HashMap<>());
        when(fences.fences(anyString())).thenReturn(List.of());
        when(scales.scaled(anyString())).thenAnswer(call -> {
            if (databaseDown.get()) {
                refusedWhileDown.incrementAndGet();
                throw new org.springframework.dao.DataAccessResourceFailureException("FATAL: terminating connection due to administrator command");
            }
            return Optional.empty();
        });
    }

    @AfterEach
    void stopNodes() {
        nodes.forEach(HealthMonitorScheduler::destroy);
    }

    private static HealStarter.Snapshot emptySnapshot() {
        return new HealStarter.Snapshot(new LinkedHashMap<>(), new HashMap<>());
    }

    private static CvmInfo cvm(String slot, String status) {
        return new CvmInfo("id-" + slot, slot, "app", "vm-" + slot, "inst-" + slot, status, false, null, "hash", null, null, null,
                null, new Gateway("sim.local", null), null, null, null, null, null, null, null);
    }

    /** A probe that answers at once, healthy unless Phala says the CVM is not running, and says which node asked. */
    private static final class RecordingProbe implements HealthProbe {
        final String node;
        final ConcurrentLinkedQueue<String> probed;

        RecordingProbe(String node, ConcurrentLinkedQueue<String> probed) {
            this.node = node;
            this.probed = probed;
        }

        @Override
        public ProbeResult probe(URI url, int expectStatus, Duration timeout) {
            throw new UnsupportedOperationException("the monitor never blocks on a probe");
        }

        @Override
        public CompletableFuture<ProbeResult> probeAsync(URI url, int expectStatus, Duration timeout) {
            probed.add(node + " " + url.getPath());
            return CompletableFuture.completedFuture(new ProbeResult(true, 200, "HTTP 200", Duration.ofMillis(1)));
        }
    }

    private HealthMonitorScheduler node(String name, ConcurrentLinkedQueue<String> probed, MeterRegistry meters) {
        HealingProperties settings = new HealingProperties();
        settings.setNodeId(name);
        settings.setLease(Duration.ofSeconds(3));
        settings.setTick(Duration.ofMillis(50));
        settings.setFullListEvery(1000);
        ReplicaSets replicaSets = new ReplicaSets(fleet, registry, scales);
        InstanceHealth health = new InstanceHealth(new RecordingProbe(name, probed), new InstanceUrlTemplate("http://h/{instanceId}{path}"));
        StaticListableBeanFactory beans = new StaticListableBeanFactory();
        beans.addBean("meters", meters);
        ObjectProvider<MeterRegistry> meterProvider = beans.getBeanProvider(MeterRegistry.class);
        HealthMonitorScheduler scheduler = new HealthMonitorScheduler(replicaSets, registry, slotHealth, fences, refusals, heals, outages, admissions,
                mock(RuntimeService.class, RETURNS_DEEP_STUBS), leases, phala, health, conditions, settings,
                new OrchestratorProperties(), db.transactions, Clock.systemUTC(), meterProvider,
                new com.statefulcvm.delegates.support.PhalaEffects(phala, new com.statefulcvm.registry.JdbcEffectIntentRegistry(db.dataSource),
                        Clock.systemUTC(), new com.statefulcvm.delegates.support.EffectSettings(null)),
                adopted());
        nodes.add(scheduler);
        scheduler.start();
        return scheduler;
    }

    @Test
    void roundsComeOneIntervalApartAndASteadySetCostsNoCallOfItsOwnAndWritesNothing() {
        ConcurrentLinkedQueue<String> probed = new ConcurrentLinkedQueue<>();
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        HealthMonitorScheduler scheduler = node("a", probed, meters);
        await().atMost(Duration.ofSeconds(30)).until(() -> scheduler.localView("s0").map(v -> v.rounds() >= 2).orElse(false));
        int savesAfterTwo = registry.saves.get();
        long roundsBefore = scheduler.localView("s0").orElseThrow().rounds();
        long t0 = System.nanoTime();

        await().atMost(Duration.ofSeconds(30)).until(() -> scheduler.localView("s0").orElseThrow().rounds() >= roundsBefore + 3);

        Duration took = Duration.ofNanos(System.nanoTime() - t0);
        assertThat(took).as("three rounds one interval apart").isBetween(Duration.ofMillis(1500), Duration.ofSeconds(6));
        assertThat(registry.saves.get()).as("nothing changed, nothing written").isEqualTo(savesAfterTwo);
        verify(phala, org.mockito.Mockito.times(4)).listAppCvms(anyString()); // each set once, at its first round
        verify(phala, atLeastOnce()).statusBatch(anyList());
        verify(heals, never()).start(any(), anyInt(), anyString(), anyString(), anyString(), any(), anyBoolean());
        assertThat(meters.get(HealthMonitorScheduler.ROUNDS).tag("mode", "monitor").counter().count()).isGreaterThanOrEqualTo(12);
        assertThat(leases.lease("s0").orElseThrow().stage()).isEqualTo("2 of 2 healthy");
    }

    @Test
    void anInstanceThatStaysDownGetsItsHealAtTheUnhealthyThreshold() {
        HealthMonitorScheduler scheduler = node("a", new ConcurrentLinkedQueue<>(), new SimpleMeterRegistry());
        await().atMost(Duration.ofSeconds(30)).until(() -> scheduler.localView("s2").map(v -> v.rounds() >= 2).orElse(false));

        cloud.put("s2-1", cvm("s2-1", "stopped"));

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> verify(heals).start(any(), eq(1), anyString(), eq("monitor"),
                eq("health monitor"), any(), eq(true)));
        verify(heals, never()).start(any(), eq(0), anyString(), anyString(), anyString(), any(), anyBoolean());
        // the heal is started inside the round's transaction, which commits the count and the status a moment later
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            assertThat(slotHealth.get("s2", 1).orElseThrow().consecutiveFailures()).isGreaterThanOrEqualTo(2);
            assertThat(registry.instance("s2", 1).orElseThrow().status()).isEqualTo("stopped");
        });
        // the count goes on with every round while the CVM stays down: whichever round the poll sees, from the second on
        await().atMost(Duration.ofSeconds(30)).until(() -> leases.lease("s2").orElseThrow().stage()
                .matches("(?s).*s2-1 unhealthy \\(([2-9]|\\d{2,}) consecutive failed health checks \\(unhealthy threshold 2\\); "
                        + "last: CVM status stopped\\): heal heal-1 started.*"));
    }

    @Test
    void aDatabaseRestartAtTheStartOfRoundsLeavesEverySetMonitored() {
        // chaos seed 4: the orchestrator's database restarted as rounds started; the rounds that could not start were
        // never marked done (the next one's time is read from the set, from the database), the node kept the sets'
        // leases and never looked at them again, and a CVM that crashed next was not healed until the node died
        HealthMonitorScheduler scheduler = node("a", new ConcurrentLinkedQueue<>(), new SimpleMeterRegistry());
        await().atMost(Duration.ofSeconds(30)).until(() -> fleet.getReplicaSets().stream()
                .allMatch(set -> scheduler.localView(set.getName()).map(v -> v.rounds() >= 2).orElse(false)));

        databaseDown.set(true);
        // long enough for every set's round to come due (1 s apart) and meet the database down: counted in the
        // monitor's own refused reads (a tick's first read of the database fails), not in wall-clock time
        await().atMost(Duration.ofSeconds(30)).until(() -> refusedWhileDown.get() >= 8);
        int seen = refusedWhileDown.get();
        await().atMost(Duration.ofSeconds(30)).until(() -> refusedWhileDown.get() >= seen + 6);
        databaseDown.set(false);
        cloud.put("s2-1", cvm("s2-1", "stopped"));

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> verify(heals).start(any(), eq(1), anyString(), eq("monitor"),
                eq("health monitor"), any(), eq(true)));
        Map<String, Long> before = new HashMap<>();
        fleet.getReplicaSets().forEach(set -> before.put(set.getName(), scheduler.localView(set.getName()).orElseThrow().rounds()));
        await("every set's rounds go on").atMost(Duration.ofSeconds(30)).until(() -> fleet.getReplicaSets().stream()
                .allMatch(set -> scheduler.localView(set.getName()).orElseThrow().rounds() >= before.get(set.getName()) + 2));
    }

    @Test
    void twoNodesSplitTheSetsNeverProbeOneSetBothAndTakeOverWhenOneStops() {
        ConcurrentLinkedQueue<String> probed = new ConcurrentLinkedQueue<>();
        HealthMonitorScheduler a = node("a", probed, new SimpleMeterRegistry());
        HealthMonitorScheduler b = node("b", probed, new SimpleMeterRegistry());
        await().atMost(Duration.ofSeconds(30)).until(() -> held(a).size() == 2 && held(b).size() == 2);
        probed.clear();
        await().atMost(Duration.ofSeconds(30)).until(() -> probedSets(probed, "a").size() == 2 && probedSets(probed, "b").size() == 2);
        Set<String> both = new HashSet<>(probedSets(probed, "a"));
        both.retainAll(probedSets(probed, "b"));
        assertThat(both).as("no set probed by both nodes").isEmpty();

        a.destroy();
        probed.clear();
        await().atMost(Duration.ofSeconds(30)).until(() -> probedSets(probed, "b").size() == 4);
        assertThat(probedSets(probed, "a")).isEmpty();
    }

    private static Set<String> held(HealthMonitorScheduler node) {
        Set<String> sets = new HashSet<>();
        for (int i = 0; i < 4; i++) {
            if (node.localView("s" + i).isPresent()) {
                sets.add("s" + i);
            }
        }
        return sets;
    }

    private static Set<String> probedSets(ConcurrentLinkedQueue<String> probed, String node) {
        Set<String> sets = new HashSet<>();
        for (String p : probed) {
            if (p.startsWith(node + " ")) {
                String path = p.substring(node.length() + 1);
                sets.add(path.substring("/inst-".length(), path.indexOf('-', "/inst-".length())));
            }
        }
        return sets;
    }

    /** The registry in memory, counting writes. */
    static final class MemoryRegistry implements InstanceRegistry {
        final Map<String, InstanceRecord> rows = new ConcurrentHashMap<>();
        final AtomicInteger saves = new AtomicInteger();

        @Override
        public List<InstanceRecord> instances(String replicaSet) {
            return rows.values().stream().filter(r -> r.replicaSet().equals(replicaSet)).toList();
        }

        @Override
        public Optional<InstanceRecord> instance(String replicaSet, int ordinal) {
            return Optional.ofNullable(rows.get(replicaSet + "/" + ordinal));
        }

        @Override
        public void save(InstanceRecord record) {
            saves.incrementAndGet();
            rows.put(record.replicaSet() + "/" + record.ordinal(), record);
        }

        @Override
        public void forget(String replicaSet, int ordinal) {
            rows.remove(replicaSet + "/" + ordinal);
        }

        @Override
        public Optional<String> createdAppId(String replicaSet) {
            return Optional.empty();
        }

        @Override
        public void saveCreatedAppId(String replicaSet, String appId) {
        }

        @Override
        public Optional<String> envEncryptPubkey(String replicaSet) {
            return Optional.empty();
        }

        @Override
        public void saveEnvEncryptPubkey(String replicaSet, String pubkey) {
        }
    }
}
