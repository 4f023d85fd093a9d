package com.statefulcvm.fleet;

import java.util.Comparator;

/** The order in which a rollout visits ordinals; descending is the StatefulSet default (ordinal 0 is often the seed). */
public enum RolloutOrder {
    ORDINAL_DESCENDING(Comparator.<Integer>reverseOrder()),
    ORDINAL_ASCENDING(Comparator.<Integer>naturalOrder());

    private final Comparator<Integer> ordinals;

    RolloutOrder(Comparator<Integer> ordinals) {
        this.ordinals = ordinals;
    }

    public Comparator<Integer> ordinals() {
        return ordinals;
    }

    /** The spelling used in the fleet file, e.g. {@code ordinal-descending}. */
    public String fileName() {
        return name().toLowerCase().replace('_', '-');
    }
}
