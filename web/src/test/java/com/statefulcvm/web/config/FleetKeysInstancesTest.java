package com.statefulcvm.web.config;

import com.statefulcvm.fleet.FleetDefinition;
import com.statefulcvm.fleet.ReplicaSetSpec;
import org.junit.jupiter.api.Test;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The per-slot overrides are a list of beans: their keys are known, a misspelt one is named, labels take any key. */
class FleetKeysInstancesTest {

    private static List<String> unknown(Map<String, Object> properties) {
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().addFirst(new MapPropertySource("fleet", properties));
        ReplicaSetSpec set = new ReplicaSetSpec();
        set.setName("webdemo");
        FleetDefinition fleet = new FleetDefinition();
        fleet.setReplicaSets(List.of(set));
        return FleetKeys.unknown(environment, fleet);
    }

    @Test
    void overrideKeysAndLabelEntriesAreKnown() {
        assertThat(FleetKeys.knownKeys()).contains("instances", "instances.ordinal", "instances.node-id",
                "instances.instance-type", "instances.disk-size", "instances.labels", "env-encrypt-public-key");
        assertThat(unknown(Map.of(
                "orchestrator.fleet.replica-sets[0].name", "webdemo",
                "orchestrator.fleet.replica-sets[0].instances[0].ordinal", "1",
                "orchestrator.fleet.replica-sets[0].instances[0].node-id", "7",
                "orchestrator.fleet.replica-sets[0].instances[0].labels.zone", "eu-1",
                "orchestrator.fleet.replica-sets[0].env-encrypt-public-key", "ab".repeat(32)))).isEmpty();
    }

    @Test
    void aMisspeltOverrideKeyIsNamedWithItsSiblings() {
        assertThat(unknown(Map.of("orchestrator.fleet.replica-sets[0].instances[1].nod-id", "7"))).containsExactly(
                "replicaSets[0] (webdemo): instances[1].nod-id: unknown key; known keys: "
                        + "[disk-size, instance-type, labels, node-id, ordinal]");
    }
}
