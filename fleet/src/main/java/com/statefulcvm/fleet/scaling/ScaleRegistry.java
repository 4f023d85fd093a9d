package com.statefulcvm.fleet.scaling;

import java.util.List;
import java.util.Optional;

/** What scaling keeps beside the instance registry: each set's scaled count and its retained slots. */
public interface ScaleRegistry {

    Optional<ScaledCount> scaled(String replicaSet);

    /** Records (or replaces) the set's scaled count. */
    void recordScaled(ScaledCount count);

    /** Forgets the scaled count: the fleet file's count holds again. */
    void forgetScaled(String replicaSet);

    List<RetainedSlot> retained(String replicaSet);

    void retain(RetainedSlot slot);

    /** The slot is back in the set (or its CVM is gone): it is no longer retained. */
    void release(String replicaSet, int ordinal);
}
