package com.statefulcvm.fleet.budget;

import java.util.Optional;

/** The sets in an outage, stored beside the instance registry; a set without a row is not in one. */
public interface OutageRegistry {

    Optional<Outage> outage(String replicaSet);

    /** Declares the outage, or updates what it says (the slots down, the proposed recovery); {@code since} stays. */
    void declare(Outage outage);

    /** The outage is over: enough slots serve again. Nothing happens for a set that is not in one. */
    void end(String replicaSet);
}
