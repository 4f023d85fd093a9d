package com.statefulcvm.delegates.support;

import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.SlotMembers;
import com.statefulcvm.fleet.Slots;

import java.util.List;
import java.util.OptionalInt;

/**
 * The CVMs of a set's app, each named after the slot it fills ({@link SlotMembers}): a member that the fleet file maps
 * by its own name or id reads as {@code <set>-<ordinal>} everywhere past this point, so the planners, hooks and the
 * monitor know one naming. CVMs that fill no slot keep their names. Every reader of an app's CVM list goes through
 * here.
 */
public final class SetCvms {

    private SetCvms() {
    }

    public static List<CvmInfo> asSlots(ReplicaSetSpec spec, List<CvmInfo> appCvms) {
        SlotMembers members = SlotMembers.of(spec);
        return members.isEmpty() ? appCvms : appCvms.stream().map(cvm -> asSlot(spec, members, cvm)).toList();
    }

    /** The CVM under its slot's name, when it fills one. */
    public static CvmInfo asSlot(ReplicaSetSpec spec, CvmInfo cvm) {
        return asSlot(spec, SlotMembers.of(spec), cvm);
    }

    /** The ordinal this CVM fills, by the fleet file's {@code members:} or by its name. */
    public static OptionalInt ordinalOf(ReplicaSetSpec spec, CvmInfo cvm) {
        return SlotMembers.of(spec).ordinalOf(cvm.name(), cvm.id(), cvm.instanceId(), cvm.vmUuid());
    }

    private static CvmInfo asSlot(ReplicaSetSpec spec, SlotMembers members, CvmInfo cvm) {
        OptionalInt ordinal = members.ordinalOf(cvm.name(), cvm.id(), cvm.instanceId(), cvm.vmUuid());
        return ordinal.isPresent() ? cvm.withName(Slots.name(spec.getName(), ordinal.getAsInt())) : cvm;
    }
}
