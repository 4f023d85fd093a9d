package com.statefulcvm.fleet.admission;

import java.util.List;
import java.util.Optional;

/** The refused slots of every set that the disruption budget kept from being fenced; a slot without a row has none. */
public interface RefusalRegistry {

    Optional<Refusal> refusal(String replicaSet, int ordinal);

    List<Refusal> refusals(String replicaSet);

    /** Records the refusal, or replaces the slot's standing one (a later boot refused again). */
    void save(Refusal refusal);

    /** Forgets the slot's refusal: it was admitted, or fenced. Nothing happens for a slot that has none. */
    void lift(String replicaSet, int ordinal);
}
