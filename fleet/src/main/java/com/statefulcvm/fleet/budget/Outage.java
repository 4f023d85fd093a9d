package com.statefulcvm.fleet.budget;

import java.time.Instant;

/**
 * A replica set in an outage: more of its slots down than its disruption budget tolerates. While it stands no actor
 * acts on one slot (no heal, rollout, scale or failover); the set is recovered as a whole. {@code recovery} is the
 * lights-out recovery proposed for it (its seed decision waits in Tasklist), null until one is.
 *
 * @param since  when the monitor first saw it
 * @param down   which slots are down and why, as the monitor last saw them
 * @param budget the budget in words ("quorum 2 of 3, tolerates 1 down")
 */
public record Outage(String replicaSet, Instant since, String down, String budget, String recovery) {

    /** The set's condition while the outage stands. */
    public String condition() {
        return "Outage: " + down + "; " + budget + ": no heal, rollout, scale or failover acts on one slot"
                + (recovery == null ? "; recover the set with a lights-out recovery"
                : "; lights-out recovery " + recovery + " proposed (its seed decision is in Tasklist)");
    }

    /** Why an actor that would act on one slot is refused: the outage, and what to do instead. */
    public String refusal(String what) {
        return "replica set '" + replicaSet + "' is in an outage since " + since + " (" + down + "; " + budget + "): "
                + what + " would act on one slot while the set must be recovered as a whole; "
                + (recovery == null ? "recover it with a lights-out recovery (POST /api/replica-sets/" + replicaSet
                + "/lights-out-recovery)" : "lights-out recovery " + recovery + " is proposed: decide its seed in Tasklist");
    }

    public Outage withDown(String down, String budget) {
        return new Outage(replicaSet, since, down, budget, recovery);
    }

    public Outage withRecovery(String recovery) {
        return new Outage(replicaSet, since, down, budget, recovery);
    }
}
