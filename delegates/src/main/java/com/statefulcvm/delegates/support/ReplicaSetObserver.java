package com.statefulcvm.delegates.support;

import com.statefulcvm.connectors.health.ProbeResult;
import com.statefulcvm.connectors.phala.PhalaCloudClient;
import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.fleet.InstanceRecord;
import com.statefulcvm.fleet.InstanceRegistry;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.Slots;
import org.springframework.stereotype.Component;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Brings the registry in line with what Phala reports: which CVM fills each slot, its status and compose hash.
 * Health is kept from the last probe; a CVM that is not running is not healthy.
 */
@Component
public class ReplicaSetObserver {

    private final PhalaCloudClient phala;
    private final InstanceRegistry registry;
    private final ReplicaSets replicaSets;
    private final InstanceHealth health;
    private final Clock clock;

    public ReplicaSetObserver(PhalaCloudClient phala, InstanceRegistry registry, ReplicaSets replicaSets,
                              InstanceHealth health, Clock clock) {
        this.phala = phala;
        this.registry = registry;
        this.replicaSets = replicaSets;
        this.health = health;
        this.clock = clock;
    }

    /** One API call for the whole set; returns the slots 0..replicas-1, empty ones included. */
    public List<InstanceRecord> refresh(ReplicaSetSpec spec) {
        Map<Integer, CvmInfo> cvms = cvmsBySlot(spec);
        List<InstanceRecord> result = new ArrayList<>();
        for (int ordinal = 0; ordinal < spec.getReplicas(); ordinal++) {
            result.add(reconcile(spec, ordinal, cvms.get(ordinal)));
        }
        return result;
    }

    /** Like {@link #refresh} and then probes every running instance once. */
    public List<InstanceRecord> refreshAndProbe(ReplicaSetSpec spec) {
        Map<Integer, CvmInfo> cvms = cvmsBySlot(spec);
        List<InstanceRecord> result = new ArrayList<>();
        for (int ordinal = 0; ordinal < spec.getReplicas(); ordinal++) {
            CvmInfo cvm = cvms.get(ordinal);
            InstanceRecord record = reconcile(spec, ordinal, cvm);
            if (cvm != null && cvm.isRunning() && cvm.isSettled() && cvm.instanceId() != null) {
                record = recordProbe(record, health.probe(spec, cvm));
            }
            result.add(record);
        }
        return result;
    }

    /** Updates one slot from the app's CVM list the caller has just read ({@code cvm} null: no CVM in the slot); no API call. */
    public InstanceRecord observeSlot(ReplicaSetSpec spec, int ordinal, CvmInfo cvm) {
        return reconcile(spec, ordinal, cvm);
    }

    /** Updates one slot from a CVM the caller has just read. */
    public InstanceRecord observe(ReplicaSetSpec spec, CvmInfo cvm) {
        return reconcile(spec, replicaSets.ordinalOf(spec, cvm.name()), cvm);
    }

    public InstanceRecord recordProbe(InstanceRecord record, ProbeResult probe) {
        InstanceRecord updated = probed(record, probe, clock.instant());
        registry.save(updated);
        return updated;
    }

    /** The record after a probe of its CVM, written nowhere: the health monitor writes only what changed. */
    public static InstanceRecord probed(InstanceRecord record, ProbeResult probe, Instant at) {
        return record.withHealth(probe.healthy(), probe.healthy() ? "Healthy" : "Unhealthy: " + probe.detail(), at);
    }

    /** The verdict for the CVM's current boot; the condition says the same, as the latest thing that happened. */
    public void recordAttestation(ReplicaSetSpec spec, String slot, boolean attested, String reason) {
        Instant now = clock.instant();
        String condition = attested ? "Attested: admitted" : "Attested false: " + reason;
        registry.instance(spec.getName(), replicaSets.ordinalOf(spec, slot))
                .ifPresent(record -> registry.save(record.withAttestation(attested, reason, now).withCondition(condition, now)));
    }

    /** The attested boot of the slot's CVM is over: its verdict and health are forgotten until it is attested again. */
    public InstanceRecord forgetAttestation(InstanceRecord record, String condition) {
        InstanceRecord updated = record.withoutAttestation(condition, clock.instant());
        registry.save(updated);
        return updated;
    }

    public void recordCondition(ReplicaSetSpec spec, String slot, String condition) {
        registry.instance(spec.getName(), replicaSets.ordinalOf(spec, slot))
                .ifPresent(record -> registry.save(record.withCondition(condition, clock.instant())));
    }

    private Map<Integer, CvmInfo> cvmsBySlot(ReplicaSetSpec spec) {
        Map<Integer, CvmInfo> bySlot = new HashMap<>();
        for (CvmInfo cvm : SetCvms.asSlots(spec, phala.listAppCvms(replicaSets.appId(spec)))) {
            Slots.ordinalOf(spec.getName(), cvm.name()).ifPresent(o -> bySlot.put(o, cvm));
        }
        return bySlot;
    }

    private InstanceRecord reconcile(ReplicaSetSpec spec, int ordinal, CvmInfo cvm) {
        InstanceRecord previous = registry.instance(spec.getName(), ordinal)
                .orElse(InstanceRecord.emptySlot(spec.getName(), ordinal));
        InstanceRecord current = reconciled(previous, cvm, clock.instant());
        if (current != previous) {
            registry.save(current);
        }
        return current;
    }

    /**
     * What the registry should say of a slot once Phala reported {@code cvm} in it (null: no CVM), written nowhere;
     * {@code previous} itself (the same object) when nothing changed.
     */
    public static InstanceRecord reconciled(InstanceRecord previous, CvmInfo cvm, Instant at) {
        InstanceRecord current = cvm == null ? missing(previous) : observed(previous, cvm);
        return current.equals(previous) ? previous : stamped(current, at);
    }

    private static InstanceRecord observed(InstanceRecord previous, CvmInfo cvm) {
        boolean running = cvm.isRunning() && cvm.isSettled();
        boolean sameCvm = cvm.id() != null && cvm.id().equals(previous.cvmId());
        // A probe result belongs to one CVM while it runs; anything else makes health unknown or false.
        Boolean healthy = !running ? Boolean.FALSE : sameCvm ? previous.healthy() : null;
        String condition = sameCvm && running && previous.condition() != null ? previous.condition() : "Status " + cvm.status();
        // An attestation speaks for one boot of one CVM with one identity and compose: leaving "running" (restart,
        // update, stop), a new CVM, another instance_id or compose hash ends it. A restart too quick for any observer to
        // see it leave "running" is caught by the health monitor's boot marker (AdmissionCheck).
        boolean sameBoot = sameCvm && running && "running".equals(previous.status())
                && Objects.equals(cvm.instanceId(), previous.instanceId()) && Objects.equals(cvm.composeHash(), previous.composeHash());
        return new InstanceRecord(previous.replicaSet(), previous.ordinal(), previous.slot(), cvm.id(), cvm.vmUuid(),
                cvm.instanceId(), cvm.composeHash(), cvm.status(), healthy, condition, previous.observedAt(),
                sameBoot ? previous.attested() : null, sameBoot ? previous.attestation() : null,
                sameBoot ? previous.attestedAt() : null);
    }

    private static InstanceRecord missing(InstanceRecord previous) {
        return new InstanceRecord(previous.replicaSet(), previous.ordinal(), previous.slot(), null, null, null, null,
                "missing", false, "No CVM in this slot", previous.observedAt(), null, null, null);
    }

    private static InstanceRecord stamped(InstanceRecord r, Instant at) {
        return new InstanceRecord(r.replicaSet(), r.ordinal(), r.slot(), r.cvmId(), r.vmUuid(), r.instanceId(), r.composeHash(),
                r.status(), r.healthy(), r.condition(), at, r.attested(), r.attestation(), r.attestedAt());
    }
}
