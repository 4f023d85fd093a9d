package com.statefulcvm.fleet.adoption;

import com.statefulcvm.fleet.ReplicaSetSpec;

import java.util.Optional;

/** Which sets have been adopted. */
public interface Adoptions {

    Optional<Adoption> adoption(String replicaSet);

    /** Records the adoption; a set adopted already keeps its first one (an adoption run again changes nothing). */
    void record(Adoption adoption);

    /**
     * A set names an app made elsewhere ({@code appId} in the fleet file) and nobody has adopted it: the orchestrator
     * only observes it, and every procedure but the adoption is refused. A set without {@code appId} lives in an app
     * this deployment created, which needs no adoption.
     */
    default boolean awaitsAdoption(ReplicaSetSpec spec) {
        return spec.getAppId() != null && !spec.getAppId().isBlank() && adoption(spec.getName()).isEmpty();
    }
}
