package com.statefulcvm.fleet.lightsout;

import com.statefulcvm.fleet.WorkloadCatalog;
import com.statefulcvm.fleet.FleetDefinition;
import com.statefulcvm.fleet.FleetValidator;
import com.statefulcvm.fleet.ReplicaSetSpec;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class LightsOutValidationTest {

    private final FleetValidator validator = new FleetValidator(Set.of("generic", "etcd", "patroni"), true, Path.of("."));

    private static ReplicaSetSpec set() {
        ReplicaSetSpec set = new ReplicaSetSpec();
        set.setName("kvset");
        set.setReplicas(3);
        set.setWorkloadType("generic");
        set.setDockerCompose("services:\n  kv:\n    image: kv:1\n");
        return set;
    }

    private List<String> problems(ReplicaSetSpec set) {
        FleetDefinition fleet = new FleetDefinition();
        fleet.setReplicaSets(List.of(set));
        return validator.validate(fleet);
    }

    @Test
    void defaultsAskForApprovalAndUseTheHealthChecksPort() {
        ReplicaSetSpec set = set();
        assertThat(problems(set)).isEmpty();
        LightsOut lightsOut = set.getLightsOut();
        assertThat(lightsOut.isApproval()).isTrue();
        assertThat(lightsOut.getSequenceTimeoutSeconds()).isEqualTo(120);
        assertThat(lightsOut.getSeedTimeoutSeconds()).isEqualTo(600);
        assertThat(lightsOut.getSequencePath()).isEqualTo("/sequence");
        assertThat(lightsOut.sequencePortOr(8080)).isEqualTo(8080);
        assertThat(lightsOut.holdsBack()).isFalse();
        lightsOut.setSequencePort(9000);
        assertThat(lightsOut.sequencePortOr(8080)).isEqualTo(9000);
        assertThat(set.withReplicas(5).getLightsOut()).isSameAs(lightsOut);
    }

    /** Issue 20: Patroni is held back by default (the shipped hold-back agent's port and path); none turns it off. */
    @Test
    void patroniIsHeldBackByDefaultThroughTheAgent() {
        LightsOut lightsOut = new LightsOut();
        assertThat(lightsOut.releasePathFor(WorkloadCatalog.BUILT_IN.of("patroni").isHoldBack())).isEqualTo("/release");
        assertThat(lightsOut.sequencePortFor(WorkloadCatalog.BUILT_IN.of("patroni").isHoldBack(), 8008)).isEqualTo(9000);
        assertThat(lightsOut.releasePathFor(WorkloadCatalog.BUILT_IN.of("etcd").isHoldBack())).as("etcd too: its members would catch up from each other").isEqualTo("/release");
        assertThat(lightsOut.sequencePortFor(WorkloadCatalog.BUILT_IN.of("etcd").isHoldBack(), 2379)).isEqualTo(9000);
        assertThat(lightsOut.holdsBack(WorkloadCatalog.BUILT_IN.of("consul").isHoldBack())).isFalse();
        assertThat(lightsOut.sequencePortFor(WorkloadCatalog.BUILT_IN.of("generic").isHoldBack(), 8080)).isEqualTo(8080);
        lightsOut.setReleasePath("none");
        assertThat(lightsOut.holdsBack(WorkloadCatalog.BUILT_IN.of("patroni").isHoldBack())).isFalse();
        assertThat(lightsOut.sequencePortFor(WorkloadCatalog.BUILT_IN.of("patroni").isHoldBack(), 8008)).isEqualTo(8008);
        lightsOut.setReleasePath("/let-go");
        lightsOut.setSequencePort(9100);
        assertThat(lightsOut.releasePathFor(WorkloadCatalog.BUILT_IN.of("generic").isHoldBack())).isEqualTo("/let-go");
        assertThat(lightsOut.sequencePortFor(WorkloadCatalog.BUILT_IN.of("patroni").isHoldBack(), 8008)).isEqualTo(9100);
    }

    @Test
    void everyBadFieldIsNamed() {
        ReplicaSetSpec set = set();
        set.getLightsOut().setSequenceTimeoutSeconds(0);
        set.getLightsOut().setSeedTimeoutSeconds(-5);
        set.getLightsOut().setSequencePort(70000);
        set.getLightsOut().setSequencePath("sequence");
        set.getLightsOut().setReleasePath("release now");
        assertThat(problems(set)).containsExactly(
                "replicaSets[0] (kvset): lightsOut.sequenceTimeoutSeconds: must be at least 1 (was 0)",
                "replicaSets[0] (kvset): lightsOut.seedTimeoutSeconds: must be at least 1 (was -5)",
                "replicaSets[0] (kvset): lightsOut.sequencePort: must be a port from 1 to 65535 (was 70000)",
                "replicaSets[0] (kvset): lightsOut.sequencePath: must be a path starting with / and without spaces (was 'sequence')",
                "replicaSets[0] (kvset): lightsOut.releasePath: must be a path starting with / and without spaces, or none (was 'release now')");
        set.setLightsOut(null);
        assertThat(problems(set)).containsExactly("replicaSets[0] (kvset): lightsOut: is required");
    }
}
