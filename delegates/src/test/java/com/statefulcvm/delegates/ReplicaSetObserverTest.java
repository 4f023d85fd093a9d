package com.statefulcvm.delegates;

import com.statefulcvm.connectors.health.HealthProbe;
import com.statefulcvm.connectors.health.InstanceUrlTemplate;
import com.statefulcvm.connectors.health.ProbeResult;
import com.statefulcvm.connectors.phala.PhalaCloudClient;
import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.connectors.phala.model.Gateway;
import com.statefulcvm.connectors.phala.model.Progress;
import com.statefulcvm.delegates.support.InstanceHealth;
import com.statefulcvm.delegates.support.ReplicaSetObserver;
import com.statefulcvm.delegates.support.ReplicaSets;
import com.statefulcvm.fleet.FleetDefinition;
import com.statefulcvm.fleet.InstanceRecord;
import com.statefulcvm.fleet.InstanceRegistry;
import com.statefulcvm.fleet.ReplicaSetSpec;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

/** The registry keeps an attestation verdict for one boot of one CVM, whatever the health probes say meanwhile. */
class ReplicaSetObserverTest {

    private final PhalaCloudClient phala = mock(PhalaCloudClient.class);
    private final HealthProbe probe = mock(HealthProbe.class);
    private final MapRegistry registry = new MapRegistry();
    private ReplicaSetSpec spec;
    private ReplicaSetObserver observer;

    @BeforeEach
    void setUp() {
        spec = new ReplicaSetSpec();
        spec.setName("webdemo");
        spec.setReplicas(1);
        spec.setAppId("a".repeat(40));
        FleetDefinition fleet = new FleetDefinition();
        fleet.setReplicaSets(List.of(spec));
        ReplicaSets sets = new ReplicaSets(fleet, registry, mock(com.statefulcvm.fleet.scaling.ScaleRegistry.class));
        InstanceHealth health = new InstanceHealth(probe, new InstanceUrlTemplate("http://127.0.0.1/{instanceId}-{port}{path}"));
        observer = new ReplicaSetObserver(phala, registry, sets, health, Clock.fixed(Instant.parse("2026-11-21T10:00:00Z"), ZoneOffset.UTC));
        when(probe.probe(any(), anyInt(), any())).thenReturn(new ProbeResult(true, 200, "200 OK", Duration.ofMillis(3)));
    }

    private void phalaShows(String id, String status, boolean inProgress) {
        CvmInfo cvm = new CvmInfo(id, "webdemo-0", "a".repeat(40), "uuid", "i".repeat(40), status, inProgress,
                inProgress ? new Progress("running", null, "c") : null, "hash", null, null, null, null,
                new Gateway("sim.local", null), null, null, null, null, null, null, null);
        when(phala.listAppCvms(any())).thenReturn(List.of(cvm));
    }

    @Test
    void healthProbesDoNotEraseARefusedAttestationOfTheSameBoot() {
        phalaShows("cvm_1", "running", false);
        observer.refresh(spec);
        observer.recordAttestation(spec, "webdemo-0", false, "ADMISSION_REJECTED: compose_hash ...");
        List<InstanceRecord> after = observer.refreshAndProbe(spec);
        assertThat(after.get(0).healthy()).isTrue();
        assertThat(after.get(0).attested()).isFalse();
        assertThat(after.get(0).attestation()).startsWith("ADMISSION_REJECTED");
    }

    @Test
    void anUpdateOrANewCvmEndsTheVerdict() {
        phalaShows("cvm_1", "running", false);
        observer.refresh(spec);
        observer.recordAttestation(spec, "webdemo-0", true, "admitted");
        phalaShows("cvm_1", "updating", true);
        assertThat(observer.refresh(spec).get(0).attested()).isNull();

        phalaShows("cvm_1", "running", false);
        observer.refresh(spec);
        observer.recordAttestation(spec, "webdemo-0", true, "admitted");
        phalaShows("cvm_2", "running", false);
        assertThat(observer.refresh(spec).get(0).attested()).as("another CVM in the slot").isNull();
    }

    /** The registry as a map, enough for the observer. */
    static final class MapRegistry implements InstanceRegistry {
        private final Map<String, InstanceRecord> rows = new HashMap<>();

        @Override
        public List<InstanceRecord> instances(String replicaSet) {
            return new ArrayList<>(rows.values());
        }

        @Override
        public Optional<InstanceRecord> instance(String replicaSet, int ordinal) {
            return Optional.ofNullable(rows.get(replicaSet + "/" + ordinal));
        }

        @Override
        public void save(InstanceRecord record) {
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
