package com.statefulcvm.delegates.heal;

import com.statefulcvm.connectors.health.ProbeResult;
import com.statefulcvm.connectors.phala.PhalaApiException;
import com.statefulcvm.connectors.phala.PhalaCloudClient;
import com.statefulcvm.connectors.phala.model.BatchStatus;
import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.delegates.admission.AdmissionStarter;
import com.statefulcvm.delegates.budget.OutageGuard;
import com.statefulcvm.delegates.support.InstanceHealth;
import com.statefulcvm.delegates.support.ReplicaSetObserver;
import com.statefulcvm.delegates.support.ReplicaSets;
import com.statefulcvm.fleet.InstanceRecord;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.Slots;
import com.statefulcvm.fleet.admission.AdmissionCheck;
import com.statefulcvm.fleet.admission.BootMarker;
import com.statefulcvm.fleet.admission.Fence;
import com.statefulcvm.fleet.admission.FencePolicy;
import com.statefulcvm.fleet.admission.FenceRegistry;
import com.statefulcvm.fleet.budget.SlotAvailability;
import com.statefulcvm.fleet.healing.HealthTracker;
import com.statefulcvm.fleet.healing.HealthTracker.Judgement;
import com.statefulcvm.fleet.healing.HealthTracker.Observation;
import com.statefulcvm.fleet.healing.HealthTracker.Verdict;
import com.statefulcvm.fleet.healing.SlotHealth;
import com.statefulcvm.fleet.healing.SlotHealthRegistry;
import org.camunda.bpm.engine.RuntimeService;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.camunda.bpm.engine.delegate.JavaDelegate;
import org.camunda.bpm.engine.runtime.ProcessInstance;
import org.camunda.bpm.engine.runtime.VariableInstance;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.stereotype.Component;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static com.statefulcvm.delegates.heal.HealVariables.*;

/**
 * "Probe every instance of the set": one round of the set's health monitor. It runs inside the monitor's timer job,
 * so on several engine nodes sharing one database exactly one node runs each round, and the rounds of one set never
 * overlap (the engine's job acquisition and exclusive jobs); there is no lock of our own. A round costs one
 * {@code listAppCvms} call for the whole set and one health probe per running instance, the probes in parallel on a
 * bounded pool. It then judges every slot ({@link HealthTracker}), keeps the counters in the registry, and starts
 * heal.bpmn for each instance that reached the unhealthy threshold ({@link HealStarter}: one heal per instance, the
 * set's repair budget, never an instance a rollout is working on).
 * <p>
 * Admission is enforced here too, outside any procedure ({@link AdmissionCheck}): a running instance counts only while
 * the boot it runs is the attested one. One {@code POST /status/batch} for the attested instances gives each one's
 * uptime, hence when its current boot began; an instance restarted (or updated, or replaced) behind our back since its
 * last attestation, or never attested, is not probed and gets admit-instance.bpmn, which re-attests it and fences it
 * when it fails. A fenced slot is neither probed, counted nor healed until an operator readmits it; a stopped fenced
 * CVM that someone started again is stopped again.
 */
@Component("probeReplicaSet")
public class ProbeReplicaSet implements JavaDelegate, DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(ProbeReplicaSet.class);
    private static final String RE_ATTESTATION = "re-attestation ";

    private final ReplicaSets replicaSets;
    private final PhalaCloudClient phala;
    private final InstanceHealth health;
    private final ReplicaSetObserver observer;
    private final SlotHealthRegistry slotHealth;
    private final HealStarter starter;
    private final HealingSettings settings;
    private final FenceRegistry fences;
    private final AdmissionStarter admissions;
    private final OutageGuard outages;
    private final Clock clock;
    private final ExecutorService probes;

    public ProbeReplicaSet(ReplicaSets replicaSets, PhalaCloudClient phala, InstanceHealth health, ReplicaSetObserver observer,
                           SlotHealthRegistry slotHealth, HealStarter starter, HealingSettings settings, FenceRegistry fences,
                           AdmissionStarter admissions, OutageGuard outages, Clock clock) {
        this.replicaSets = replicaSets;
        this.phala = phala;
        this.health = health;
        this.observer = observer;
        this.slotHealth = slotHealth;
        this.starter = starter;
        this.settings = settings;
        this.fences = fences;
        this.admissions = admissions;
        this.outages = outages;
        this.clock = clock;
        AtomicInteger n = new AtomicInteger();
        ThreadFactory threads = r -> {
            Thread t = new Thread(r, "health-probe-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
        this.probes = Executors.newFixedThreadPool(settings.probeThreads(), threads);
    }

    @Override
    public void execute(DelegateExecution execution) {
        Instant started = clock.instant();
        round(execution);
        // The next round is due one interval after this one started, not after it ended: otherwise every round's
        // duration (0.5 s and more on a loaded node, capacity benchmark) pushes all later rounds back.
        Object interval = execution.getVariable(MONITOR_INTERVAL);
        if (interval instanceof String iso) {
            Duration left = Duration.parse(iso).minus(Duration.between(started, clock.instant()));
            execution.setVariable(MONITOR_WAIT, (left.isNegative() ? Duration.ZERO : left).toString());
        }
    }

    private void round(DelegateExecution execution) {
        String set = (String) execution.getVariable(REPLICA_SET);
        int round = execution.getVariable(ROUND) instanceof Number n ? n.intValue() + 1 : 1;
        execution.setVariable(ROUND, round);
        if (!settings.enabled()) {
            stop(execution, "health monitors are turned off (orchestrator.healing.enabled=false): monitor stopped");
            return;
        }
        if (!replicaSets.exists(set)) {
            stop(execution, "replica set '" + set + "' is no longer in the fleet: monitor stopped");
            return;
        }
        ReplicaSetSpec spec = replicaSets.spec(set);
        if (!spec.getAutoHealing().isEnabled()) {
            stop(execution, "auto-healing of '" + set + "' is disabled in the fleet file: monitor stopped");
            return;
        }
        String older = olderTwin(execution, set);
        if (older != null) {
            stop(execution, "monitor " + older + " of '" + set + "' is older and watches the set: this one stops");
            return;
        }
        setIfChanged(execution, MONITOR_INTERVAL, MonitorStarter.interval(spec));
        setIfChanged(execution, GENERATION_DONE, round >= settings.roundsPerMonitor());

        List<CvmInfo> listed;
        try {
            listed = phala.listAppCvms(replicaSets.appId(spec));
        } catch (PhalaApiException | IllegalStateException e) {
            // Not knowing is not a failure of any instance: nothing is counted, the next round tries again.
            log.warn("Health monitor of '{}' could not list its CVMs: {}", set, e.getMessage());
            setIfChanged(execution, "stage", "could not list the set's CVMs, nothing counted: " + e.getMessage());
            return;
        }
        Map<Integer, CvmInfo> bySlot = new HashMap<>();
        listed.forEach(cvm -> Slots.ordinalOf(set, cvm.name()).ifPresent(o -> bySlot.put(o, cvm)));
        HealStarter.Snapshot engine = starter.snapshot(set);
        Map<String, String> admitting = admissions.running(set);
        Instant now = clock.instant();

        // Registry rows first, in ordinal order, then the health rows: the order every writer of both follows. A slot
        // that a rollout, a heal or a re-attestation is working on is theirs to record: the monitor leaves its registry
        // row alone, so that it never waits for (or holds up) the procedure's transaction.
        List<InstanceRecord> records = new ArrayList<>();
        for (int ordinal = 0; ordinal < spec.getReplicas(); ordinal++) {
            records.add(heldBy(spec, ordinal, engine, admitting) != null ? null : observer.observeSlot(spec, ordinal, bySlot.get(ordinal)));
        }
        Map<Integer, Fence> fenced = new HashMap<>();
        fences.fences(set).forEach(f -> fenced.put(f.ordinal(), f));
        Map<Integer, String> notAdmitted = admission(spec, bySlot, records, fenced, admitting, now);

        Map<Integer, CompletableFuture<ProbeResult>> probed = probeRunning(spec, bySlot, engine, admitting, notAdmitted);
        HealthTracker tracker = HealthTracker.of(spec.getHealthCheck(), spec.getAutoHealing());
        Map<Integer, SlotHealth> known = new HashMap<>();
        slotHealth.all(set).forEach(h -> known.put(h.ordinal(), h));
        List<Judgement> unhealthy = new ArrayList<>();
        Map<Verdict, Integer> counts = new HashMap<>();
        List<String> notes = new ArrayList<>();
        List<SlotAvailability> availability = new ArrayList<>();
        for (int ordinal = 0; ordinal < spec.getReplicas(); ordinal++) {
            CvmInfo cvm = bySlot.get(ordinal);
            ProbeResult probe = probed.containsKey(ordinal) ? probed.get(ordinal).join() : null;
            InstanceRecord record = records.get(ordinal);
            if (probe != null && record != null && !Objects.equals(record.healthy(), probe.healthy())) {
                observer.recordProbe(record, probe);
            }
            Observation seen = cvm == null ? Observation.missing()
                    : new Observation(cvm.instanceId(), cvm.status(), cvm.isSettled(),
                    probe == null ? null : probe.healthy(), probe == null ? null : probe.detail());
            String held = heldBy(spec, ordinal, engine, admitting);
            Judgement judgement = tracker.judge(known.getOrDefault(ordinal, SlotHealth.first(set, ordinal)), seen, now,
                    held != null ? held : notAdmitted.get(ordinal));
            slotHealth.saveObservation(judgement.health());
            if (cvm != null && cvm.instanceId() != null) {
                slotHealth.advanceEpoch(set, ordinal, cvm.instanceId());
            }
            counts.merge(judgement.verdict(), 1, Integer::sum);
            availability.add(availability(spec, ordinal, judgement, held, fenced.get(ordinal)));
            if (judgement.verdict() == Verdict.UNHEALTHY) {
                unhealthy.add(judgement);
            } else if (judgement.verdict() != Verdict.HEALTHY) {
                notes.add(spec.slotName(ordinal) + " " + judgement.reason());
            }
        }
        // the one point where the round decides to act: an outage is no case for healing one slot
        OutageGuard.RoundDecision decision = outages.afterRound(spec, availability, !unhealthy.isEmpty());
        if (decision.healsAllowed()) {
            for (Judgement judgement : unhealthy) {
                notes.add(heal(spec, judgement, engine));
            }
        } else {
            notes.add(0, decision.note());
        }
        setIfChanged(execution, "stage", counts.getOrDefault(Verdict.HEALTHY, 0) + " of "
                + spec.getReplicas() + " healthy" + (notes.isEmpty() ? "" : "; " + String.join("; ", notes)));
    }

    private String heal(ReplicaSetSpec spec, Judgement judgement, HealStarter.Snapshot engine) {
        int ordinal = judgement.health().ordinal();
        String slot = spec.slotName(ordinal);
        HealStarter.Outcome outcome = starter.start(spec, ordinal, "health monitor: " + judgement.reason(), TRIGGER_MONITOR,
                "health monitor", engine, true);
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
     * The slots that are not admitted now, each with why (what the round's judgement says it is held by): fenced ones,
     * and running instances without a valid attestation of their current boot, for which a re-attestation is started.
     */
    private Map<Integer, String> admission(ReplicaSetSpec spec, Map<Integer, CvmInfo> bySlot, List<InstanceRecord> records,
                                           Map<Integer, Fence> fenced, Map<String, String> admitting, Instant now) {
        Map<Integer, Instant> boots = bootMarkers(spec, bySlot, records, fenced, now);
        Map<Integer, String> notAdmitted = new HashMap<>();
        for (int ordinal = 0; ordinal < spec.getReplicas(); ordinal++) {
            InstanceRecord record = records.get(ordinal);
            if (record == null) {
                continue; // a procedure holds the slot and attests what it brings up
            }
            CvmInfo cvm = bySlot.get(ordinal);
            boolean up = cvm != null && cvm.isRunning() && cvm.isSettled() && cvm.instanceId() != null;
            Fence fence = fenced.get(ordinal);
            if (fence != null) {
                notAdmitted.put(ordinal, fence.summary() + "; readmit it to bring it back");
                if (up && fence.action() == FencePolicy.STOP) {
                    stopAgain(spec.slotName(ordinal), cvm);
                }
                continue;
            }
            if (!up) {
                continue;
            }
            AdmissionCheck.Judgement judgement = AdmissionCheck.judge(spec.getAttestation().isRequired(), Optional.empty(),
                    record.attested(), record.attestedAt(), boots.get(ordinal));
            if (judgement.kind() == AdmissionCheck.Kind.NEEDS_ATTESTATION) {
                if (record.attested() != null) {
                    observer.forgetAttestation(record, "Awaiting attestation: " + judgement.reason());
                }
                String pid = admissions.start(spec, ordinal, cvm, "health monitor: " + judgement.reason(), admitting);
                notAdmitted.put(ordinal, "not admitted (" + judgement.reason() + "): re-attestation " + pid + " started");
            }
        }
        return notAdmitted;
    }

    /**
     * When the current boot of each attested, running instance began: one {@code POST /status/batch} for all of them
     * (Phala's uptime). Unknown (the call failed, no uptime): the recorded verdict alone is judged this round.
     */
    private Map<Integer, Instant> bootMarkers(ReplicaSetSpec spec, Map<Integer, CvmInfo> bySlot, List<InstanceRecord> records,
                                              Map<Integer, Fence> fenced, Instant now) {
        Map<String, Integer> byVmUuid = new HashMap<>();
        for (int ordinal = 0; ordinal < spec.getReplicas(); ordinal++) {
            CvmInfo cvm = bySlot.get(ordinal);
            InstanceRecord record = records.get(ordinal);
            if (record != null && Boolean.TRUE.equals(record.attested()) && !fenced.containsKey(ordinal) && cvm != null
                    && cvm.vmUuid() != null && cvm.isRunning() && cvm.isSettled()) {
                byVmUuid.put(cvm.vmUuid(), ordinal);
            }
        }
        Map<Integer, Instant> boots = new HashMap<>();
        if (byVmUuid.isEmpty() || !spec.getAttestation().isRequired()) {
            return boots;
        }
        try {
            for (Map.Entry<String, BatchStatus> status : phala.statusBatch(new ArrayList<>(byVmUuid.keySet())).entrySet()) {
                Integer ordinal = byVmUuid.get(status.getKey());
                if (ordinal != null && status.getValue() != null && "running".equals(status.getValue().status())) {
                    BootMarker.bootedAt(now, status.getValue().uptime()).ifPresent(boot -> boots.put(ordinal, boot));
                }
            }
        } catch (PhalaApiException | IllegalStateException e) {
            log.warn("Health monitor of '{}' could not read its CVMs' uptime, boots not compared this round: {}",
                    spec.getName(), e.getMessage());
        }
        return boots;
    }

    /**
     * Whether the slot serves, for the disruption budget: a fenced slot and one a procedure has taken (a heal, a
     * rollout's wave, a scale's slot, a lights-out recovery) are down; one being re-attested runs and is not counted
     * down (every instance is re-attested after a start of the application); the others as their checks say.
     */
    private static SlotAvailability availability(ReplicaSetSpec spec, int ordinal, Judgement judgement, String procedure, Fence fence) {
        String slot = spec.slotName(ordinal);
        if (fence != null) {
            return SlotAvailability.down(ordinal, slot, fence.summary());
        }
        if (procedure != null && !procedure.startsWith(RE_ATTESTATION)) {
            return SlotAvailability.down(ordinal, slot, procedure);
        }
        if (judgement.verdict() == Verdict.HELD || judgement.verdict().serving()) {
            return SlotAvailability.up(ordinal, slot);
        }
        return SlotAvailability.down(ordinal, slot, judgement.reason());
    }

    /** A fenced CVM under on-failure STOP that runs again (someone started it behind our back) is stopped again. */
    private void stopAgain(String slot, CvmInfo cvm) {
        try {
            phala.stop(cvm.id());
            log.warn("{} is fenced but its CVM {} was running again: stopped it again", slot, cvm.id());
        } catch (PhalaApiException e) {
            log.warn("{} is fenced but its CVM {} runs, and the stop was not taken (next round tries again): {}", slot, cvm.id(),
                    e.getMessage());
        }
    }

    /** One probe per running, settled, booted, admitted instance that no procedure holds; all at once, on the bounded pool. */
    private Map<Integer, CompletableFuture<ProbeResult>> probeRunning(ReplicaSetSpec spec, Map<Integer, CvmInfo> bySlot,
                                                                      HealStarter.Snapshot engine, Map<String, String> admitting,
                                                                      Map<Integer, String> notAdmitted) {
        Map<Integer, CompletableFuture<ProbeResult>> probed = new HashMap<>();
        for (int ordinal = 0; ordinal < spec.getReplicas(); ordinal++) {
            CvmInfo cvm = bySlot.get(ordinal);
            if (cvm != null && cvm.isRunning() && cvm.isSettled() && cvm.instanceId() != null
                    && heldBy(spec, ordinal, engine, admitting) == null && !notAdmitted.containsKey(ordinal)) {
                probed.put(ordinal, CompletableFuture.supplyAsync(() -> probe(spec, cvm), probes));
            }
        }
        return probed;
    }

    private ProbeResult probe(ReplicaSetSpec spec, CvmInfo cvm) {
        try {
            return health.probe(spec, cvm);
        } catch (RuntimeException e) {
            return new ProbeResult(false, ProbeResult.NO_ANSWER, "probe failed: " + e.getMessage(), Duration.ZERO);
        }
    }

    private static String heldBy(ReplicaSetSpec spec, int ordinal, HealStarter.Snapshot engine, Map<String, String> admitting) {
        String slot = spec.slotName(ordinal);
        String rollout = engine.rolloutOf(slot);
        if (rollout != null) {
            return "rollout " + rollout + " is working on " + slot;
        }
        String heal = engine.healOf(spec.getName(), ordinal);
        if (heal != null) {
            return "heal " + heal + " is working on " + slot;
        }
        String admit = admitting.get(HealVariables.businessKey(spec.getName(), ordinal));
        return admit == null ? null : RE_ATTESTATION + admit + " is working on " + slot;
    }

    /**
     * Another running monitor of the same set that is older (earlier {@code monitorStartedAt}, then smaller id): two
     * nodes that start at the same moment may each start one; all but the oldest stop at their next round.
     */
    private static String olderTwin(DelegateExecution execution, String set) {
        RuntimeService runtime = execution.getProcessEngineServices().getRuntimeService();
        List<ProcessInstance> monitors = runtime.createProcessInstanceQuery().processDefinitionKey(MONITOR_PROCESS)
                .processInstanceBusinessKey(set).list();
        if (monitors.size() < 2) {
            return null;
        }
        Map<String, String> startedAt = new HashMap<>();
        for (VariableInstance v : runtime.createVariableInstanceQuery()
                .processInstanceIdIn(monitors.stream().map(ProcessInstance::getId).toArray(String[]::new))
                .variableName(MONITOR_STARTED_AT).list()) {
            startedAt.put(v.getProcessInstanceId(), String.valueOf(v.getValue()));
        }
        String oldest = monitors.stream().map(ProcessInstance::getId)
                .min(Comparator.comparing((String id) -> startedAt.getOrDefault(id, "")).thenComparing(id -> id))
                .orElseThrow();
        return oldest.equals(execution.getProcessInstanceId()) ? null : oldest;
    }

    private static void stop(DelegateExecution execution, String why) {
        log.info(why);
        execution.setVariable(KEEP_MONITORING, false);
        execution.setVariable("stage", why);
    }

    /** Each variable update is a history entry; a round writes only what changed. */
    private static void setIfChanged(DelegateExecution execution, String name, Object value) {
        if (!Objects.equals(execution.getVariable(name), value)) {
            execution.setVariable(name, value);
        }
    }

    @Override
    public void destroy() {
        probes.shutdownNow();
        try {
            probes.awaitTermination(1, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
