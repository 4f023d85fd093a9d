package com.statefulcvm.fleet;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** The fleet file's per-slot overrides: what each slot's CVM is created with, and how a bad override is named. */
class InstanceOverridesTest {

    private final FleetValidator validator = new FleetValidator(Set.of("generic"), true, Path.of("."));

    private static ReplicaSetSpec setWith(InstanceOverride... overrides) {
        ReplicaSetSpec set = FleetValidatorTest.validSet("webdemo");
        set.setInstances(new ArrayList<>(List.of(overrides)));
        return set;
    }

    @Test
    void aSlotTakesItsOverrideOnTopOfTheSetsValues() {
        ReplicaSetSpec set = setWith(new InstanceOverride(1, Map.of("zone", "eu-1"), "tdx.medium", 40, 7),
                new InstanceOverride(2, Map.of(), null, null, 9));

        assertThat(validator.validate(FleetValidatorTest.fleetOf(set))).isEmpty();
        assertThat(set.slotSpec(0)).isEqualTo(new SlotSpec(0, "webdemo-0", Map.of(), "tdx.small", 20, null, false));
        assertThat(set.slotSpec(1)).isEqualTo(new SlotSpec(1, "webdemo-1", Map.of("zone", "eu-1"), "tdx.medium", 40, 7, true));
        assertThat(set.slotSpec(2)).isEqualTo(new SlotSpec(2, "webdemo-2", Map.of(), "tdx.small", 20, 9, true));
        assertThat(set.slotSpec(2).nodeIdText()).isEqualTo("9");
        assertThat(set.withReplicas(5).slotSpec(1).nodeId()).as("a scaled copy keeps the overrides").isEqualTo(7);
    }

    @Test
    void everyBadOverrideIsNamedByIndexAndField() {
        ReplicaSetSpec set = setWith(
                new InstanceOverride(null, Map.of(), null, null, null),
                new InstanceOverride(-1, Map.of(), null, null, null),
                new InstanceOverride(10, Map.of(), null, null, null),
                new InstanceOverride(1, Map.of("bad key!", "x"), "TDX Small", 0, -3),
                new InstanceOverride(1, Map.of(), null, null, null));
        set.getScaling().setMaxReplicas(10);

        assertThat(validator.validate(FleetValidatorTest.fleetOf(set))).containsExactly(
                "replicaSets[0] (webdemo): instances[0].ordinal: is required (the slot's number: 0 for <set>-0)",
                "replicaSets[0] (webdemo): instances[1].ordinal: -1 is not a slot of the set (ordinals 0..9, replicas 3, scaling.maxReplicas 10)",
                "replicaSets[0] (webdemo): instances[2].ordinal: 10 is not a slot of the set (ordinals 0..9, replicas 3, scaling.maxReplicas 10)",
                "replicaSets[0] (webdemo): instances[3].labels.bad key!: is not a label key (letters, digits, '-', '_', '.', at most 63, optionally prefixed 'example.com/')",
                "replicaSets[0] (webdemo): instances[3].instanceType: must be an instance type name such as tdx.small (was 'TDX Small')",
                "replicaSets[0] (webdemo): instances[3].diskSize: must be at least 1 (GB) (was 0)",
                "replicaSets[0] (webdemo): instances[3].nodeId: must be a Phala node id, 0 or more (was -3)",
                "replicaSets[0] (webdemo): instances[4].ordinal: 1 has another override in this set; give each slot one");
    }

    @Test
    void anOrdinalAtOrBeyondTheReplicasIsRefusedWhenTheSetCannotScaleThere() {
        ReplicaSetSpec set = setWith(new InstanceOverride(3, Map.of(), null, null, 1));
        set.getScaling().setMaxReplicas(3);

        assertThat(validator.validate(FleetValidatorTest.fleetOf(set))).containsExactly(
                "replicaSets[0] (webdemo): instances[0].ordinal: 3 is not a slot of the set (ordinals 0..2, replicas 3)");
    }

    @Test
    void theEnvEncryptionPublicKeyMustBe32BytesOfHex() {
        ReplicaSetSpec set = setWith();
        set.setEnvEncryptPublicKey("not-a-key");
        assertThat(validator.validate(FleetValidatorTest.fleetOf(set))).singleElement().asString()
                .startsWith("replicaSets[0] (webdemo): envEncryptPublicKey: must be the app's X25519 public key");
        set.setEnvEncryptPublicKey("ab".repeat(32));
        assertThat(validator.validate(FleetValidatorTest.fleetOf(set))).isEmpty();
    }
}
