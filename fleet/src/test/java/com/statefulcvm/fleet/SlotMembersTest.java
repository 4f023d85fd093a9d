package com.statefulcvm.fleet;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalInt;

import static org.assertj.core.api.Assertions.assertThat;

class SlotMembersTest {

    private static ReplicaSetSpec set(List<String> members) {
        ReplicaSetSpec spec = new ReplicaSetSpec();
        spec.setName("db");
        spec.setReplicas(3);
        spec.setMembers(members);
        return spec;
    }

    @Test
    void aMemberMappedByNameOrIdFillsItsOrdinalAndOthersGoByTheirNames() {
        SlotMembers members = SlotMembers.of(set(List.of("dbnode-a", "dbnode-b", "cvm_II31skR3Yt")));

        assertThat(members.ordinalOf("dbnode-a", "id-a")).isEqualTo(OptionalInt.of(0));
        assertThat(members.ordinalOf("dbnode-b")).isEqualTo(OptionalInt.of(1));
        assertThat(members.ordinalOf("dstack-app-x7k2q", "cvm_II31skR3Yt", null)).isEqualTo(OptionalInt.of(2));
        // a replacement the orchestrator creates is named after its slot
        assertThat(members.ordinalOf("db-1", "new-id")).isEqualTo(OptionalInt.of(1));
        assertThat(members.ordinalOf("dstack-app-other", "other-id")).isEmpty();
        assertThat(members.cvmOf(1)).contains("dbnode-b");
        assertThat(SlotMembers.of(set(List.of())).cvmOf(1)).isEmpty();
    }

    @Test
    void aListGivingOneCvmTwoSlotsOrContradictingANameIsRefusedNamingTheEntry() {
        List<String> members = new ArrayList<>(Arrays.asList("dbnode-a", "dbnode-a", "db-1", "", null));

        assertThat(SlotMembers.problems("db", members)).containsExactly(
                "members[1]: CVM 'dbnode-a' is also members[0]; a CVM fills one slot",
                "members[2]: CVM 'db-1' is named after slot 1; a CVM named after a slot fills that slot");
        assertThat(SlotMembers.problems("db", List.of("dbnode-a", "db-1"))).isEmpty();
        assertThat(SlotMembers.of(set(members)).cvmOf(3)).as("an empty entry leaves the slot to the name rule").isEmpty();
    }
}
