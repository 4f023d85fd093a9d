package com.statefulcvm.delegates.heal;

import com.statefulcvm.connectors.health.ProbeResult;
import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.connectors.phala.model.Gateway;
import com.statefulcvm.connectors.phala.model.Progress;
import com.statefulcvm.fleet.InstanceRecord;
import com.statefulcvm.fleet.ReplicaSetSpec;

import java.time.Duration;
import java.time.Instant;

/** The pieces a health round is made of, for the round's and the admission enforcer's unit tests. */
public final class RoundFixture {

    public static final Instant NOW = Instant.parse("2026-11-26T10:00:00Z");

    private RoundFixture() {
    }

    /** A set of {@code replicas} generic instances: healthy after 2 good checks, unhealthy after 3 bad ones, 60 s initial delay. */
    public static ReplicaSetSpec set(String name, int replicas) {
        ReplicaSetSpec spec = new ReplicaSetSpec();
        spec.setName(name);
        spec.setReplicas(replicas);
        spec.setAppId("a".repeat(40));
        return spec;
    }

    public static CvmInfo running(String slot, String instanceId) {
        return cvm(slot, instanceId, "running", false);
    }

    public static CvmInfo cvm(String slot, String instanceId, String status, boolean inProgress) {
        return new CvmInfo("cvm-" + slot, slot, "a".repeat(40), "vm-" + slot, instanceId, status, inProgress,
                inProgress ? new Progress("running", null, "c") : null, "hash", null, null, null, null,
                new Gateway("sim.local", null), null, null, null, null, null, null, null);
    }

    /** The registry's row of a running instance that was attested at {@code attestedAt} (null: never). */
    public static InstanceRecord record(CvmInfo cvm, int ordinal, Boolean healthy, Boolean attested, Instant attestedAt) {
        String set = cvm.name().substring(0, cvm.name().lastIndexOf('-'));
        return new InstanceRecord(set, ordinal, cvm.name(), cvm.id(), cvm.vmUuid(), cvm.instanceId(), cvm.composeHash(), cvm.status(),
                healthy, healthy == null ? "Status running" : healthy ? "Healthy" : "Unhealthy: x", NOW.minusSeconds(600), attested,
                attested == null ? null : attested ? "admitted" : "refused", attestedAt);
    }

    public static ProbeResult ok() {
        return new ProbeResult(true, 200, "HTTP 200", Duration.ofMillis(2));
    }

    public static ProbeResult down() {
        return new ProbeResult(false, 503, "expected HTTP 200 but got 503", Duration.ofMillis(2));
    }
}
