package com.statefulcvm.web.healing;

import com.statefulcvm.connectors.health.ProbeResult;
import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.delegates.heal.HealthRound;
import com.statefulcvm.delegates.procedure.AdmissionStarter;
import com.statefulcvm.delegates.procedure.HealStarter;
import com.statefulcvm.delegates.support.ReplicaSets;
import com.statefulcvm.fleet.InstanceRecord;
import com.statefulcvm.fleet.InstanceRegistry;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.admission.Fence;
import com.statefulcvm.fleet.admission.FenceRegistry;
import com.statefulcvm.fleet.admission.Refusal;
import com.statefulcvm.fleet.admission.RefusalRegistry;
import com.statefulcvm.fleet.healing.SlotHealth;
import com.statefulcvm.fleet.healing.SlotHealthRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * Runs the rounds the scheduler says are due: first the reads all of them share ({@link #read}: the engine's running
 * procedures, the registry, one status batch from Phala), then each set's round ({@link #run}): what Phala shows of the
 * set ({@link CvmSightings}), the health counters, fences and refusals, the plan ({@link HealthRound#plan}), the probes
 * ({@link ProbeLimiter}, no thread waits for them), the judgement and what it leads to ({@link RoundEffects}). When a
 * round is due is the scheduler's business, not this class's.
 */
class RoundRunner {

    private static final Logger log = LoggerFactory.getLogger(RoundRunner.class);

    private final ReplicaSets replicaSets;
    private final InstanceRegistry registry;
    private final SlotHealthRegistry slotHealth;
    private final FenceRegistry fences;
    private final RefusalRegistry refusals;
    private final HealStarter heals;
    private final AdmissionStarter admissions;
    private final CvmSightings sightings;
    private final ProbeLimiter probes;
    private final RoundEffects effects;
    private final int fullListEvery;
    private final Executor executor;

    /** @param executor where a round goes on once its probes have answered */
    RoundRunner(ReplicaSets replicaSets, InstanceRegistry registry, SlotHealthRegistry slotHealth, FenceRegistry fences,
                RefusalRegistry refusals, HealStarter heals, AdmissionStarter admissions, CvmSightings sightings, ProbeLimiter probes, RoundEffects effects,
                int fullListEvery, Executor executor) {
        this.replicaSets = replicaSets;
        this.registry = registry;
        this.slotHealth = slotHealth;
        this.fences = fences;
        this.refusals = refusals;
        this.heals = heals;
        this.admissions = admissions;
        this.sightings = sightings;
        this.probes = probes;
        this.effects = effects;
        this.fullListEvery = fullListEvery;
        this.executor = executor;
    }

    /** What a set's rounds on this node carry from one to the next. */
    static final class Memory {
        volatile CvmSightings.LastSeen lastSeen;
        volatile String stage;
        volatile boolean conditionsWaiting = true;
    }

    /**
     * The reads the due rounds share.
     *
     * @param specs   the due sets that still exist, in the order they came due
     * @param records each of those sets' registry rows by ordinal
     */
    record Shared(Map<String, ReplicaSetSpec> specs, Map<String, HealStarter.Snapshot> engine,
                  Map<String, Map<String, String>> admitting, Map<String, Map<Integer, InstanceRecord>> records,
                  CvmSightings.Statuses statuses) {
    }

    /**
     * @param due each due set's memory, in the order they came due; a set that no longer exists is left out of the answer
     */
    Shared read(Map<String, Memory> due) {
        Map<String, ReplicaSetSpec> specs = new LinkedHashMap<>();
        for (String set : due.keySet()) {
            if (replicaSets.exists(set)) {
                specs.put(set, replicaSets.spec(set));
            }
        }
        Map<String, HealStarter.Snapshot> engine = heals.snapshots(specs.keySet());
        Map<String, Map<String, String>> admitting = admissions.running(specs.keySet());
        Map<String, Map<Integer, InstanceRecord>> records = new HashMap<>();
        Set<String> vmUuids = new LinkedHashSet<>();
        for (String set : specs.keySet()) {
            Map<Integer, InstanceRecord> byOrdinal = new HashMap<>();
            registry.instances(set).forEach(r -> byOrdinal.put(r.ordinal(), r));
            records.put(set, byOrdinal);
            CvmSightings.LastSeen last = due.get(set).lastSeen;
            if (last != null) {
                last.cvms().values().stream().map(CvmInfo::vmUuid).filter(Objects::nonNull).forEach(vmUuids::add);
            } else {
                byOrdinal.values().stream().map(InstanceRecord::vmUuid).filter(Objects::nonNull).forEach(vmUuids::add);
            }
        }
        return new Shared(specs, engine, admitting, records, sightings.statuses(vmUuids));
    }

    /**
     * One set's round. A round that fails (Phala, the database, a bug) changed nothing and leaves its memory as it was;
     * the next one tries again.
     *
     * @return completes, never exceptionally, when the round is over
     */
    CompletableFuture<Void> run(String node, ReplicaSetSpec spec, HealthRound.Mode mode, Memory memory, Shared shared, Instant start) {
        CompletableFuture<Void> over = new CompletableFuture<>();
        try {
            String set = spec.getName();
            CvmSightings.Sighting seen = sightings.sight(spec, memory.lastSeen, shared.statuses(), fullListEvery, start);
            memory.lastSeen = seen.remembered(memory.lastSeen);
            if (seen.unreadable() != null) {
                log.warn("Health monitor of '{}' could not list its CVMs: {}", set, seen.unreadable());
                apply(node, spec, memory, HealthRound.Outcome.unreadable(spec, mode, seen.unreadable()));
                over.complete(null);
                return over;
            }
            Map<Integer, SlotHealth> known = new HashMap<>();
            Map<Integer, Fence> fenced = new HashMap<>();
            Map<Integer, Refusal> refused = new HashMap<>();
            if (mode == HealthRound.Mode.MONITOR) {
                slotHealth.all(set).forEach(h -> known.put(h.ordinal(), h));
                fences.fences(set).forEach(f -> fenced.put(f.ordinal(), f));
                refusals.refusals(set).forEach(r -> refused.put(r.ordinal(), r));
            }
            HealthRound.Plan plan = HealthRound.plan(new HealthRound.Inputs(spec, mode, seen.cvms(), seen.boots(),
                    shared.records().get(set), known, fenced, refused, shared.engine().get(set), shared.admitting().get(set), start));
            Map<Integer, CompletableFuture<ProbeResult>> probing = new HashMap<>();
            plan.probes().forEach((ordinal, cvm) -> probing.put(ordinal, probes.probe(spec, cvm)));
            CompletableFuture.allOf(probing.values().toArray(CompletableFuture[]::new)).whenCompleteAsync((ignored, failure) -> {
                try {
                    Map<Integer, ProbeResult> results = new HashMap<>();
                    probing.forEach((ordinal, probe) -> results.put(ordinal, probe.join()));
                    apply(node, spec, memory, HealthRound.judge(plan, results));
                } catch (RuntimeException e) {
                    failed(spec, e);
                } finally {
                    over.complete(null);
                }
            }, executor);
        } catch (RuntimeException e) {
            failed(spec, e);
            over.complete(null);
        }
        return over;
    }

    private void apply(String node, ReplicaSetSpec spec, Memory memory, HealthRound.Outcome outcome) {
        RoundEffects.Applied applied = effects.apply(node, spec, outcome, memory.stage, memory.conditionsWaiting);
        if (!applied.held()) {
            log.info("Node {} no longer holds the health monitor of '{}': round dropped", node, spec.getName());
        }
        memory.stage = applied.stage();
        memory.conditionsWaiting = applied.conditionsWaiting();
    }

    private static void failed(ReplicaSetSpec spec, RuntimeException e) {
        log.warn("Health monitor round of '{}' failed, the next one tries again: {}", spec.getName(), e.toString(), e);
    }
}
