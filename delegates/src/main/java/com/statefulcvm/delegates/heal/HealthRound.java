package com.statefulcvm.delegates.heal;

import com.statefulcvm.delegates.procedure.HealVariables;
import com.statefulcvm.delegates.procedure.HealStarter;
import com.statefulcvm.connectors.health.ProbeResult;
import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.delegates.admission.AdmissionEnforcer;
import com.statefulcvm.delegates.support.ReplicaSetObserver;
import com.statefulcvm.fleet.InstanceRecord;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.admission.Fence;
import com.statefulcvm.fleet.admission.Refusal;
import com.statefulcvm.fleet.budget.SlotAvailability;
import com.statefulcvm.fleet.healing.HealthTracker;
import com.statefulcvm.fleet.healing.HealthTracker.Judgement;
import com.statefulcvm.fleet.healing.HealthTracker.Observation;
import com.statefulcvm.fleet.healing.HealthTracker.Verdict;
import com.statefulcvm.fleet.healing.SlotHealth;

import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * One round of a replica set's health monitor, outside the process engine, as two pure steps around the probes:
 * {@link #plan} decides from what was read (Phala's view of the set's CVMs, the registry, the health counters, the
 * fences and the engine's running procedures) which slots are held, what the registry should say, the admission
 * verdicts ({@link AdmissionEnforcer}) and which instances to probe; {@link #judge} turns the probes into each slot's
 * judgement ({@link HealthTracker}) and the round's {@link Outcome}: only what changed, and the heals and
 * re-attestations to start. The caller (the scheduler) does every read, probe and write, so that a round in which
 * nothing changed writes nothing and starts nothing.
 * <p>
 * A slot that a rollout, a heal or a re-attestation is working on is <b>held</b>: its status is followed, its failures
 * are not counted, it is not probed, and its registry row is left to the procedure.
 */
public final class HealthRound {

    private static final String RE_ATTESTATION = "re-attestation ";

    private HealthRound() {
    }

    /**
     * {@code MONITOR}: a set with auto-healing: admission, judgement, heals. {@code OBSERVE}: a set without: the
     * registry's status and health kept current, nothing judged or started.
     */
    public enum Mode { MONITOR, OBSERVE }

    /**
     * What a round starts from.
     *
     * @param cvms      the set's CVMs by ordinal, as Phala reports them now
     * @param boots     when each running instance's current boot began (Phala's uptime), where known
     * @param records   the registry's row of each slot (a slot without one is absent)
     * @param known     the health counters of each slot (a slot without any is absent)
     * @param admitting the running re-attestations of the set, by business key
     */
    public record Inputs(ReplicaSetSpec spec, Mode mode, Map<Integer, CvmInfo> cvms, Map<Integer, Instant> boots,
                         Map<Integer, InstanceRecord> records, Map<Integer, SlotHealth> known, Map<Integer, Fence> fences,
                         Map<Integer, Refusal> refusals, HealStarter.Snapshot engine, Map<String, String> admitting, Instant now) {
    }

    /**
     * The round before its probes.
     *
     * @param held     why each held slot is held
     * @param observed each slot's registry row as it should be after Phala's report (held slots: as the registry has it)
     * @param probes   the instances to probe, by ordinal: running, settled, booted, admitted, not held
     */
    public record Plan(Inputs in, Map<Integer, String> held, Map<Integer, InstanceRecord> observed,
                       AdmissionEnforcer.Verdicts admission, Map<Integer, CvmInfo> probes) {
    }

    /**
     * What the round found and what must be done about it; empty collections when nothing changed.
     *
     * @param recordsToSave  registry rows that changed (never a held slot's)
     * @param records        every slot's registry row after the round, for the observed conditions
     * @param healthToSave   health counters that changed in a way worth a write (not every round's probe time)
     * @param newIdentities  instance ids the slots' epochs are not bound to yet, by ordinal
     * @param unhealthy      the slots due for a heal, in ordinal order
     * @param stage          the monitor's summary of the set (null in OBSERVE mode)
     * @param availability   whether each slot serves, for the set's disruption budget (empty in OBSERVE mode, and
     *                       when the set could not be read: not knowing is no outage)
     */
    public record Outcome(String replicaSet, Mode mode, Map<Integer, InstanceRecord> recordsToSave, List<InstanceRecord> records,
                          List<SlotHealth> healthToSave, Map<Integer, String> newIdentities, List<Judgement> unhealthy,
                          List<AdmissionEnforcer.Reattest> reattest, List<AdmissionEnforcer.Fenced> stopAgain, String stage,
                          List<SlotAvailability> availability) {

        /** True when the round must write or start anything (a fenced CVM to stop again is not a write). */
        public boolean writes() {
            return !recordsToSave.isEmpty() || !healthToSave.isEmpty() || !newIdentities.isEmpty() || !unhealthy.isEmpty()
                    || !reattest.isEmpty();
        }

        /** A round that could not read the set's CVMs: nothing is counted, the next round tries again. */
        public static Outcome unreadable(ReplicaSetSpec spec, Mode mode, String why) {
            return new Outcome(spec.getName(), mode, Map.of(), List.of(), List.of(), Map.of(), List.of(), List.of(), List.of(),
                    mode == Mode.MONITOR ? "could not list the set's CVMs, nothing counted: " + why : null, List.of());
        }
    }

    public static Plan plan(Inputs in) {
        ReplicaSetSpec spec = in.spec();
        Map<Integer, String> held = new TreeMap<>();
        Map<Integer, InstanceRecord> observed = new TreeMap<>();
        Map<Integer, InstanceRecord> free = new TreeMap<>();
        for (int ordinal = 0; ordinal < spec.getReplicas(); ordinal++) {
            InstanceRecord before = in.records().getOrDefault(ordinal, InstanceRecord.emptySlot(spec.getName(), ordinal));
            String holder = heldBy(spec, ordinal, in.engine(), in.admitting());
            if (holder != null) {
                held.put(ordinal, holder);
                observed.put(ordinal, before);
            } else {
                InstanceRecord after = ReplicaSetObserver.reconciled(before, in.cvms().get(ordinal), in.now());
                observed.put(ordinal, after);
                free.put(ordinal, after);
            }
        }
        AdmissionEnforcer.Verdicts admission = in.mode() == Mode.MONITOR
                ? AdmissionEnforcer.judge(spec, in.cvms(), free, in.fences(), in.refusals(), in.boots(), in.now())
                : new AdmissionEnforcer.Verdicts(Map.of(), Map.of());
        admission.reattest().values().stream().filter(r -> r.forgotten() != null)
                .forEach(r -> observed.put(r.ordinal(), r.forgotten()));
        Map<Integer, CvmInfo> probes = new TreeMap<>();
        for (int ordinal : free.keySet()) {
            CvmInfo cvm = in.cvms().get(ordinal);
            if (cvm != null && cvm.isRunning() && cvm.isSettled() && cvm.instanceId() != null && admission.notAdmitted(ordinal) == null) {
                probes.put(ordinal, cvm);
            }
        }
        return new Plan(in, held, observed, admission, probes);
    }

    public static Outcome judge(Plan plan, Map<Integer, ProbeResult> probed) {
        Inputs in = plan.in();
        ReplicaSetSpec spec = in.spec();
        Map<Integer, InstanceRecord> recordsToSave = new TreeMap<>();
        List<InstanceRecord> records = new ArrayList<>();
        for (Map.Entry<Integer, InstanceRecord> slot : plan.observed().entrySet()) {
            int ordinal = slot.getKey();
            InstanceRecord record = slot.getValue();
            ProbeResult probe = probed.get(ordinal);
            if (probe != null && !Objects.equals(record.healthy(), probe.healthy())) {
                record = ReplicaSetObserver.probed(record, probe, in.now());
            }
            records.add(record);
            if (!plan.held().containsKey(ordinal) && record != in.records().get(ordinal)
                    && !record.equals(in.records().get(ordinal))) {
                recordsToSave.put(ordinal, record);
            }
        }
        if (in.mode() == Mode.OBSERVE) {
            return new Outcome(spec.getName(), Mode.OBSERVE, recordsToSave, records, List.of(), Map.of(), List.of(), List.of(),
                    List.of(), null, List.of());
        }

        HealthTracker tracker = HealthTracker.of(spec.getHealthCheck(), spec.getAutoHealing());
        int healthyThreshold = Math.max(1, spec.getHealthCheck().getHealthyThreshold());
        List<SlotHealth> healthToSave = new ArrayList<>();
        Map<Integer, String> newIdentities = new LinkedHashMap<>();
        List<Judgement> unhealthy = new ArrayList<>();
        Map<Verdict, Integer> counts = new EnumMap<>(Verdict.class);
        List<String> notes = new ArrayList<>();
        List<SlotAvailability> availability = new ArrayList<>();
        for (int ordinal = 0; ordinal < spec.getReplicas(); ordinal++) {
            CvmInfo cvm = in.cvms().get(ordinal);
            ProbeResult probe = probed.get(ordinal);
            Observation seen = cvm == null ? Observation.missing()
                    : new Observation(cvm.instanceId(), cvm.status(), cvm.isSettled(),
                    probe == null ? null : probe.healthy(), probe == null ? null : probe.detail());
            String held = plan.held().get(ordinal);
            SlotHealth before = in.known().get(ordinal);
            Judgement judgement = tracker.judge(before != null ? before : SlotHealth.first(spec.getName(), ordinal), seen, in.now(),
                    held != null ? held : plan.admission().notAdmitted(ordinal));
            if (before == null || worthWriting(before, judgement.health(), healthyThreshold)) {
                healthToSave.add(judgement.health());
            }
            SlotHealth epoch = before != null ? before : SlotHealth.first(spec.getName(), ordinal);
            if (cvm != null && cvm.instanceId() != null && !cvm.instanceId().equals(epoch.epochInstanceId())) {
                newIdentities.put(ordinal, cvm.instanceId());
            }
            counts.merge(judgement.verdict(), 1, Integer::sum);
            availability.add(availability(spec, ordinal, judgement, held, in.fences().get(ordinal)));
            if (judgement.verdict() == Verdict.UNHEALTHY) {
                unhealthy.add(judgement);
            } else if (judgement.verdict() != Verdict.HEALTHY) {
                notes.add(spec.slotName(ordinal) + " " + judgement.reason());
            }
        }
        String stage = counts.getOrDefault(Verdict.HEALTHY, 0) + " of " + spec.getReplicas() + " healthy"
                + (notes.isEmpty() ? "" : "; " + String.join("; ", notes));
        List<AdmissionEnforcer.Fenced> stopAgain = plan.admission().fenced().values().stream()
                .filter(f -> f.stopAgain() != null).toList();
        return new Outcome(spec.getName(), Mode.MONITOR, recordsToSave, records, healthToSave, newIdentities, unhealthy,
                List.copyOf(plan.admission().reattest().values()), stopAgain, stage, availability);
    }

    /**
     * Whether the slot serves, for the disruption budget: a fenced slot and one a procedure has taken (a heal, a
     * rollout's wave, a scale's slot, a lights-out recovery) are down; one being re-attested runs and is not counted
     * down (every instance is re-attested after a start of the application); the others as their checks say, from
     * their first failed check on (a CVM that is not running, busy, failing, unhealthy or starting is down).
     */
    static SlotAvailability availability(ReplicaSetSpec spec, int ordinal, Judgement judgement, String procedure, Fence fence) {
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

    /**
     * A healthy slot that stays healthy changes only its probe time and its count of good checks beyond the healthy
     * threshold: neither is worth a write per round (5,000 instances every 10 s would be 500 writes a second for
     * nothing). Anything else is.
     */
    static boolean worthWriting(SlotHealth before, SlotHealth after, int healthyThreshold) {
        return !normalized(before, healthyThreshold).equals(normalized(after, healthyThreshold));
    }

    private static SlotHealth normalized(SlotHealth h, int healthyThreshold) {
        return new SlotHealth(h.replicaSet(), h.ordinal(), h.epoch(), h.epochInstanceId(), h.instanceId(), h.lastStatus(),
                h.healthy(), h.consecutiveFailures(), Math.min(h.consecutiveSuccesses(), healthyThreshold), null, h.lastResult(),
                h.lastChangeAt(), h.startedAt(), h.lastHeal(), h.lastHealAt());
    }

    /** Why a procedure holds the slot now, or null: a rollout's wave (or scale, lights-out), a heal, a re-attestation. */
    static String heldBy(ReplicaSetSpec spec, int ordinal, HealStarter.Snapshot engine, Map<String, String> admitting) {
        String holder = engine.holderOf(spec, ordinal);
        if (holder != null) {
            return holder;
        }
        String admit = admitting.get(HealVariables.businessKey(spec.getName(), ordinal));
        return admit == null ? null : RE_ATTESTATION + admit + " is working on " + spec.slotName(ordinal);
    }
}
