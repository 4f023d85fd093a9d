package com.statefulcvm.fleet.admission;

import java.util.List;
import java.util.Optional;

/** The fenced slots of every set, stored beside the instance registry; a slot without a row is not fenced. */
public interface FenceRegistry {

    Optional<Fence> fence(String replicaSet, int ordinal);

    List<Fence> fences(String replicaSet);

    /** Fences the slot, or updates its fence (a later failed attestation with another reason). */
    void save(Fence fence);

    /** Lifts the fence: a new attestation admitted the slot's instance. Nothing happens for a slot that is not fenced. */
    void lift(String replicaSet, int ordinal);
}
