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
 * maps its CVMs in the fleet file's {@code members:}, from CVM name or CVM id to ordinal. The mapping wins over the
 * name, so a member listed there is never also taken as another slot. A CVM the orchestrator creates later (a heal's
 * replacement, a scale) is named after its slot, and the name rule finds it.
 */
public final class SlotMembers {

    private final String replicaSet;
    private final Map<String, Integer> members;

    private SlotMembers(String replicaSet, Map<String, Integer> members) {
        this.replicaSet = replicaSet;
        this.members = members == null ? Map.of() : members;
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
        for (String id : ids) {
            Integer mapped = id == null ? null : members.get(id);
            if (mapped != null) {
                return OptionalInt.of(mapped);
            }
        }
        Integer mapped = cvmName == null ? null : members.get(cvmName);
        return mapped != null ? OptionalInt.of(mapped) : Slots.ordinalOf(replicaSet, cvmName);
    }

    /** The CVM names or ids the fleet file maps to this ordinal, to look the slot's CVM up by. */
    public List<String> keysOf(int ordinal) {
        List<String> keys = new ArrayList<>();
        members.forEach((key, value) -> {
            if (value != null && value == ordinal) {
                keys.add(key);
            }
        });
        return keys;
    }

    /** The fleet file's name for this slot's CVM, when it maps one; else the slot's own name. */
    public String cvmNameOf(int ordinal) {
        return keysOf(ordinal).stream().findFirst().orElse(Slots.name(replicaSet, ordinal));
    }

    public boolean isEmpty() {
        return members.isEmpty();
    }

    /** Problems of a {@code members:} map, each as {@code field: message}. */
    public static List<String> problems(String replicaSet, Map<String, Integer> members) {
        List<String> problems = new ArrayList<>();
        if (members == null) {
            return problems;
        }
        Map<Integer, String> byOrdinal = new HashMap<>();
        members.forEach((key, ordinal) -> {
            String at = "members." + key;
            if (key == null || key.isBlank()) {
                problems.add("members: a member needs a CVM name or id");
                return;
            }
            if (ordinal == null || ordinal < 0) {
                problems.add(at + ": must be the ordinal of the slot this CVM fills, 0 or more (was " + ordinal + ")");
                return;
            }
            Optional.ofNullable(byOrdinal.put(ordinal, key)).ifPresent(other -> problems.add(
                    at + ": ordinal " + ordinal + " is also given to '" + other + "'; each slot has one CVM"));
            OptionalInt named = Slots.ordinalOf(replicaSet, key);
            if (named.isPresent() && named.getAsInt() != ordinal) {
                problems.add(at + ": the name says slot " + named.getAsInt() + " but the map says " + ordinal
                        + "; a CVM named after a slot fills that slot");
            }
        });
        return problems;
    }
}
