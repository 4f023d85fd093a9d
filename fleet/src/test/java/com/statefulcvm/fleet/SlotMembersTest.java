package com.statefulcvm.fleet;

import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalInt;

import static org.assertj.core.api.Assertions.assertThat;

class SlotMembersTest {

    private static ReplicaSetSpec set(Map<String, Integer> members) {
        ReplicaSetSpec spec = new ReplicaSetSpec();
        spec.setName("db");
        spec.setReplicas(3);
        spec.setMembers(members);
        return spec;
    }

    @Test
    void aMemberMappedByNameOrIdFillsItsOrdinalAndOthersGoByTheirNames() {
        SlotMembers members = SlotMembers.of(set(Map.of("dbnode-a", 0, "dbnode-b", 1, "1f2e3d4c", 2)));

        assertThat(members.ordinalOf("dbnode-a", "id-a")).isEqualTo(OptionalInt.of(0));
        assertThat(members.ordinalOf("dbnode-b")).isEqualTo(OptionalInt.of(1));
        assertThat(members.ordinalOf("dstack-app-x7k2q", "1f2e3d4c", null)).isEqualTo(OptionalInt.of(2));
        // a replacement the orchestrator creates is named after its slot
        assertThat(members.ordinalOf("db-1", "new-id")).isEqualTo(OptionalInt.of(1));
        assertThat(members.ordinalOf("dstack-app-other", "other-id")).isEmpty();
        assertThat(members.keysOf(1)).containsExactly("dbnode-b");
        assertThat(members.cvmNameOf(1)).isEqualTo("dbnode-b");
        assertThat(SlotMembers.of(set(Map.of())).cvmNameOf(1)).isEqualTo("db-1");
    }

    @Test
    void aMapGivingOneSlotTwoCvmsOrContradictingANameIsRefusedNamingTheMember() {
        Map<String, Integer> members = new LinkedHashMap<>();
        members.put("dbnode-a", 0);
        members.put("dbnode-b", 0);
        members.put("db-2", 1);
        members.put("dbnode-c", -1);

        assertThat(SlotMembers.problems("db", members)).containsExactly(
                "members.dbnode-b: ordinal 0 is also given to 'dbnode-a'; each slot has one CVM",
                "members.db-2: the name says slot 2 but the map says 1; a CVM named after a slot fills that slot",
                "members.dbnode-c: must be the ordinal of the slot this CVM fills, 0 or more (was -1)");
        assertThat(SlotMembers.problems("db", Map.of("dbnode-a", 0, "db-1", 1))).isEmpty();
    }
}
