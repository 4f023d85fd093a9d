package com.statefulcvm.fleet.admission;

import java.util.List;

/** The platforms approvers pinned for each set, beside the fleet file's. */
public interface PinnedPlatforms {

    List<PinnedPlatform> pinned(String replicaSet);

    /** Pins the platform for the set; pinning one the set has pinned already changes nothing. */
    void pin(PinnedPlatform pinned);
}
