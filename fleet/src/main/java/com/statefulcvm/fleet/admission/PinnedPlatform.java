package com.statefulcvm.fleet.admission;

import com.statefulcvm.fleet.PlatformMeasurements;

import java.time.Instant;

/**
 * A platform (MRTD, RTMR0-2) a set accepts beside the fleet file's, because an approver pinned it after its instances
 * were refused for showing it (a new OS image or firmware rolled out by the platform): who, when, and from which
 * refusal. It stands until the fleet file pins it itself and the row is deleted by hand.
 */
public record PinnedPlatform(String replicaSet, PlatformMeasurements platform, String pinnedBy, Instant pinnedAt, String reason) {
}
