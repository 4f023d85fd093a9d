package com.statefulcvm.fleet.scaling;

import com.statefulcvm.fleet.WorkloadCatalog;
import com.statefulcvm.fleet.FleetDefinition;
import com.statefulcvm.fleet.FleetValidator;
import com.statefulcvm.fleet.ReplicaSetSpec;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class ScalingValidationTest {

    private final FleetValidator validator = new FleetValidator(Set.of("generic", "etcd", "patroni", "consul"), true, Path.of("."));

    private static ReplicaSetSpec set(String type) {
        ReplicaSetSpec set = new ReplicaSetSpec();
        set.setName("kvset");
        set.setReplicas(3);
        set.setWorkloadType(type);
        set.setDockerCompose("services:\n  kv:\n    image: etcd:3.4\n");
        return set;
    }

    private List<String> problems(ReplicaSetSpec set) {
        FleetDefinition fleet = new FleetDefinition();
        fleet.setReplicaSets(List.of(set));
        return validator.validate(fleet);
    }

    @Test
    void defaultsRetainAndFollowTheWorkloadsQuorum() {
        assertThat(problems(set("etcd"))).isEmpty();
        Scaling scaling = set("etcd").getScaling();
        assertThat(scaling.getScaleDown()).isEqualTo(ScaleDownPolicy.RETAIN);
        assertThat(scaling.minReplicasOr(WorkloadCatalog.BUILT_IN.of("etcd").getMinReplicas())).isEqualTo(3);
        assertThat(scaling.minReplicasOr(WorkloadCatalog.BUILT_IN.of("consul").getMinReplicas())).isEqualTo(3);
        assertThat(scaling.minReplicasOr(WorkloadCatalog.BUILT_IN.of("patroni").getMinReplicas())).isEqualTo(2);
        assertThat(scaling.minReplicasOr(WorkloadCatalog.BUILT_IN.of("generic").getMinReplicas())).isEqualTo(1);
        assertThat(scaling.maxReplicasFor(3, 100)).isEqualTo(10);
        assertThat(scaling.maxReplicasFor(30, 100)).isEqualTo(60);
        assertThat(scaling.maxReplicasFor(80, 100)).isEqualTo(100);
        scaling.setMinReplicas(2);
        assertThat(scaling.minReplicasOr(WorkloadCatalog.BUILT_IN.of("etcd").getMinReplicas())).isEqualTo(2);
    }

    @Test
    void everyBadFieldIsNamed() {
        ReplicaSetSpec set = set("etcd");
        set.getScaling().setScaleDown(null);
        set.getScaling().setMinReplicas(0);
        set.getScaling().setMaxReplicas(101);
        set.getScaling().setPeerUrlTemplate("ftp://{name}:2380/{slot}");
        Map<String, String> urls = new LinkedHashMap<>();
        urls.put("x", "http://127.0.0.1:2380");
        urls.put("4", "not a url");
        set.getScaling().setPeerUrls(urls);
        assertThat(problems(set)).containsExactly(
                "replicaSets[0] (kvset): scaling.scaleDown: is required: retain or delete",
                "replicaSets[0] (kvset): scaling.minReplicas: must be at least 1 (was 0)",
                "replicaSets[0] (kvset): scaling.maxReplicas: must be between 1 and 100 (was 101)",
                "replicaSets[0] (kvset): scaling.peerUrlTemplate: must be an http or https URL with a host (was 'ftp://{name}:2380/{slot}')",
                "replicaSets[0] (kvset): scaling.peerUrlTemplate: unknown placeholder {slot}; known: {name}, {ordinal}, {set}",
                "replicaSets[0] (kvset): scaling.peerUrls.x: the key must be an ordinal from 0 to 99 (below the most replicas a scale may ask for, 100)",
                "replicaSets[0] (kvset): scaling.peerUrls.4: must be an http or https URL with a host (was 'not a url')");
    }

    @Test
    void theBoundsMustHoldTheFleetFilesCount() {
        ReplicaSetSpec set = set("generic");
        set.getScaling().setMaxReplicas(2);
        set.getScaling().setMinReplicas(4);
        assertThat(problems(set)).containsExactly(
                "replicaSets[0] (kvset): scaling.maxReplicas: must not be below replicas (3) (was 2)",
                "replicaSets[0] (kvset): scaling.minReplicas: must not exceed replicas (3) (was 4)");
    }

    @Test
    void peerUrlsComeFromTheMapFirstThenTheTemplate() {
        Scaling scaling = set("etcd").getScaling();
        assertThat(scaling.peerUrl("kvset", 3)).isEmpty();
        scaling.setPeerUrlTemplate("https://{name}.peers.internal:2380?set={set}&n={ordinal}");
        scaling.setPeerUrls(Map.of("4", "http://127.0.0.1:23456"));
        assertThat(scaling.peerUrl("kvset", 3)).contains("https://kvset-3.peers.internal:2380?set=kvset&n=3");
        assertThat(scaling.peerUrl("kvset", 4)).contains("http://127.0.0.1:23456");
    }

    @Test
    void theFileWinsOnceItsCountChanges() {
        Optional<ScaledCount> scaled = Optional.of(new ScaledCount("kvset", 5, 3, "olivia", Instant.EPOCH));
        assertThat(DesiredReplicas.of(3, Optional.empty())).isEqualTo(3);
        assertThat(DesiredReplicas.of(3, scaled)).isEqualTo(5);
        assertThat(DesiredReplicas.fileChanged(3, scaled)).isFalse();
        assertThat(DesiredReplicas.of(4, scaled)).isEqualTo(4);
        assertThat(DesiredReplicas.fileChanged(4, scaled)).isTrue();
    }

    /** A copy with another count shares every other field: a field added to the spec must be copied too. */
    @Test
    void withReplicasCopiesEveryField() throws IllegalAccessException {
        ReplicaSetSpec set = set("etcd");
        set.setAppId("app_0123456789abcdef0123456789abcdef01234567");
        set.setComposeFile("config/compose/x.yaml");
        set.setInstanceType("tdx.large");
        set.setDiskSize(40);
        set.setEnvEncryptPublicKey("0x" + "ab".repeat(32));
        set.useWorkload(WorkloadCatalog.BUILT_IN);
        ReplicaSetSpec copy = set.withReplicas(5);
        assertThat(copy.getReplicas()).isEqualTo(5);
        assertThat(set.getReplicas()).isEqualTo(3);
        for (Field field : ReplicaSetSpec.class.getDeclaredFields()) {
            if (Modifier.isStatic(field.getModifiers()) || field.getName().equals("replicas")) {
                continue;
            }
            field.setAccessible(true);
            assertThat(field.get(copy)).as(field.getName()).isNotNull().isEqualTo(field.get(set));
        }
    }
}
