package com.statefulcvm.fleet;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Which slot a CVM of the set's app fills. A CVM named {@code <set>-<ordinal>} fills that ordinal; an app made
 * elsewhere (Terraform's {@code phala_app_instance} names, {@code dstack-app-xxxxx} from {@code createAppInstance})
 * lists its CVMs in the fleet file's {@code members:}, by CVM name or CVM id, in ordinal order: the first fills slot 0
 * (a list rather than a map keyed by CVM, since a configuration key loses the characters CVM ids are made of; an empty
 * entry leaves its slot to the name rule). The list wins over the name, so a member listed there is never also taken
 * as another slot. A CVM the orchestrator creates later (a heal's replacement, a scale) is named after
 * its slot, and the name rule finds it.
 */
public final class SlotMembers {

    private final String replicaSet;
    private final List<String> members;

    private SlotMembers(String replicaSet, List<String> members) {
        this.replicaSet = replicaSet;
        this.members = members == null ? List.of() : members;
    }

    public static SlotMembers of(ReplicaSetSpec spec) {
        return new SlotMembers(spec.getName(), spec.getMembers());
    }

    /**
     * The ordinal the CVM fills, or empty for a CVM that is none of the set's slots.
     *
     * @param ids the CVM's ids as Phala lists them (its {@code id}, {@code instance_id}, {@code vm_uuid}); any may be null
     */
    public OptionalInt ordinalOf(String cvmName, String... ids) {
        for (int ordinal = 0; ordinal < members.size(); ordinal++) {
            String cvm = members.get(ordinal);
            if (cvm == null || cvm.isBlank()) {
                continue;
            }
            if (cvm.equals(cvmName)) {
                return OptionalInt.of(ordinal);
            }
            for (String id : ids) {
                if (cvm.equals(id)) {
                    return OptionalInt.of(ordinal);
                }
            }
        }
        return Slots.ordinalOf(replicaSet, cvmName);
    }

    /** The CVM name or id the fleet file maps to this ordinal, to look the slot's CVM up by. */
    public Optional<String> cvmOf(int ordinal) {
        return ordinal < 0 || ordinal >= members.size() ? Optional.empty()
                : Optional.ofNullable(members.get(ordinal)).filter(cvm -> !cvm.isBlank());
    }

    public boolean isEmpty() {
        return members.isEmpty();
    }

    /** Problems of a {@code members:} list, each as {@code field: message}. */
    public static List<String> problems(String replicaSet, List<String> members) {
        List<String> problems = new ArrayList<>();
        if (members == null) {
            return problems;
        }
        Map<String, Integer> byCvm = new HashMap<>();
        for (int ordinal = 0; ordinal < members.size(); ordinal++) {
            String cvm = members.get(ordinal);
            if (cvm == null || cvm.isBlank()) {
                continue;
            }
            String at = "members[" + ordinal + "]";
            Integer other = byCvm.put(cvm, ordinal);
            if (other != null) {
                problems.add(at + ": CVM '" + cvm + "' is also members[" + other + "]; a CVM fills one slot");
            }
            OptionalInt named = Slots.ordinalOf(replicaSet, cvm);
            if (named.isPresent() && named.getAsInt() != ordinal) {
                problems.add(at + ": CVM '" + cvm + "' is named after slot " + named.getAsInt()
                        + "; a CVM named after a slot fills that slot");
            }
        }
        return problems;
    }
}
