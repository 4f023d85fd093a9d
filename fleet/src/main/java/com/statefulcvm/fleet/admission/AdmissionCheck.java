package com.statefulcvm.fleet.admission;

import java.time.Instant;
import java.util.Optional;

/**
 * The health monitor's admission judgement of one running instance, outside any procedure: an instance counts (is
 * probed, may be healthy) only while the boot it runs is the one that was attested. Fenced slots stay out until an
 * operator readmits them; an instance with no verdict for its current boot (first seen, restarted, updated or replaced
 * behind our back, its last verdict forgotten) or whose boot began after its verdict (a restart too quick to be seen
 * leaving "running", told by {@link BootMarker}) is attested again first.
 */
public final class AdmissionCheck {

    public enum Kind {
        /** Attested for its current boot, or the set does not require attestation: judged on its health. */
        ADMITTED,
        /** Kept out of the workload after a failed attestation: not probed, counted or healed. */
        FENCED,
        /** Not (or no longer) attested for the boot it runs: re-attested before it counts. */
        NEEDS_ATTESTATION
    }

    public record Judgement(Kind kind, String reason) {
    }

    private AdmissionCheck() {
    }

    /**
     * @param bootedAt when the CVM's current boot began (now minus Phala's uptime), null when unknown: then only the
     *                 recorded verdict is judged
     */
    public static Judgement judge(boolean required, Optional<Fence> fence, Boolean attested, Instant attestedAt, Instant bootedAt) {
        if (fence.isPresent()) {
            return new Judgement(Kind.FENCED, fence.get().summary());
        }
        if (!required) {
            return new Judgement(Kind.ADMITTED, "attestation not required");
        }
        if (!Boolean.TRUE.equals(attested)) {
            return new Judgement(Kind.NEEDS_ATTESTATION, Boolean.FALSE.equals(attested)
                    ? "its last attestation failed" : "no attestation of its current boot");
        }
        if (BootMarker.bootedSince(bootedAt, attestedAt)) {
            return new Judgement(Kind.NEEDS_ATTESTATION, "restarted since its last attestation (booted at " + bootedAt
                    + ", attested at " + attestedAt + ")");
        }
        return new Judgement(Kind.ADMITTED, "attested at " + attestedAt);
    }
}
