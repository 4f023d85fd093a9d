package com.statefulcvm.fleet.budget;

import com.statefulcvm.fleet.QuorumRule;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.UpdatePolicy;

import java.util.List;
import java.util.stream.Collectors;

/**
 * One disruption budget per replica set: how many of its slots may be down at once, from its live membership (the
 * workload's quorum over the set's current member count) and its update policy. Every actor asks it: the health
 * monitor before it heals, the heal start, the rollout planner (its waves never take the set below its quorum), and
 * the start of a rollout, a scale or a failover.
 * <ul>
 *   <li><b>quorum</b>: the members that must serve for the set to serve, by its workload type's rule
 *   ({@link com.statefulcvm.fleet.WorkloadType}). A raft store (etcd, Consul) needs a majority of its voters; Patroni
 *   and a generic set serve with one member (Patroni's leader, any replica of a generic set).</li>
 *   <li><b>tolerated</b> = members − quorum: slots that may be down while the set still serves. One slot down more
 *   is an <b>outage</b>, not a failure: the replicas left may not hold the most recent data (a raft store cannot even
 *   elect), so restarting one of them alone may seed the set from a replica that is behind. No actor acts on one slot
 *   then; the set is recovered as a whole (lights-out recovery). A set of one member has no outage of its own: its
 *   only replica is always the most recent.</li>
 *   <li><b>our disruptions</b>: the update policy's maxUnavailable, never more than the tolerance (a rollout of a raft
 *   store never takes its quorum down), unless the set tolerates none: then one, so that it can still be updated.</li>
 * </ul>
 */
public final class DisruptionBudget {

    private final int members;
    private final int quorum;
    private final int maxUnavailable;

    private DisruptionBudget(int members, int quorum, int maxUnavailable) {
        this.members = members;
        this.quorum = quorum;
        this.maxUnavailable = maxUnavailable;
    }

    public static DisruptionBudget of(ReplicaSetSpec spec) {
        return of(spec.getReplicas(), spec.workload().quorumRule(), spec.getUpdatePolicy());
    }

    /** @param quorum the workload type's rule ({@link com.statefulcvm.fleet.WorkloadType}); null: one member serves */
    public static DisruptionBudget of(int members, QuorumRule quorum, UpdatePolicy policy) {
        if (members < 0) {
            throw new IllegalArgumentException("members must not be negative (was " + members + ")");
        }
        return new DisruptionBudget(members, (quorum == null ? QuorumRule.ONE : quorum).of(members), policy.resolvedMaxUnavailable(members));
    }

    public int members() {
        return members;
    }

    public int quorum() {
        return quorum;
    }

    /** Slots that may be down while the set still serves. */
    public int tolerated() {
        return members - quorum;
    }

    /**
     * How many slots our own procedures may take down at once: the update policy's maxUnavailable, capped at the
     * tolerance (but never below one, so that a set that tolerates none can still be updated knowingly; a policy of
     * maxUnavailable 0 stays 0: it surges instead).
     */
    public int disruptionsAllowed() {
        return Math.min(maxUnavailable, Math.max(1, tolerated()));
    }

    /** True when this many slots down is an outage. */
    public boolean isOutage(int down) {
        return members >= 2 && down > tolerated();
    }

    /** "quorum 2 of 3, tolerates 1 down": the budget in words. */
    public String describe() {
        return "quorum " + quorum + " of " + members + ", tolerates " + tolerated() + " down";
    }

    /** The update policy's maxUnavailable, resolved for the members. */
    public int maxUnavailable() {
        return maxUnavailable;
    }

    /** Judges the set's slots as they are now. */
    public Judgement judge(List<SlotAvailability> slots) {
        List<SlotAvailability> down = slots.stream().filter(SlotAvailability::down).toList();
        return new Judgement(this, down, isOutage(down.size()));
    }

    /**
     * Whether one of our procedures may take {@code slot} down now, judged on the set's <b>other</b> slots as they are
     * this moment (read live: a crash of a moment ago counts). Once the slot is down, no more than
     * {@link #disruptionsAllowed()} members may be unavailable, so the others that serve must number at least members −
     * disruptionsAllowed. A surge slot that serves counts among them: a policy of maxUnavailable 0 takes a slot down
     * once its surge instance serves. The slot itself is not counted either way: taking down a slot that is down
     * already (it crashed) costs nothing more.
     */
    public TakeDown judgeTakeDown(String slot, List<SlotAvailability> others) {
        List<SlotAvailability> down = others.stream().filter(SlotAvailability::down).toList();
        int serving = others.size() - down.size();
        int needed = Math.max(0, members - disruptionsAllowed());
        return new TakeDown(this, slot, serving >= needed, serving, needed, down);
    }

    /** The budget's answer for taking one slot down now, with the numbers it decided on. */
    public record TakeDown(DisruptionBudget budget, String slot, boolean allowed, int serving, int needed,
                           List<SlotAvailability> down) {

        public TakeDown {
            down = List.copyOf(down);
        }

        /** "taking web-1 down would leave 3 serving, the budget needs 4 (...); down now: web-0 (CVM status stopped)". */
        public String summary() {
            String which = down.isEmpty() ? "none" : down.stream().map(s -> s.slot() + " (" + s.why() + ")")
                    .collect(Collectors.joining(", "));
            return "taking " + slot + " down would leave " + serving + " serving, the budget needs " + needed
                    + " (" + budget.disruptionsAllowed() + " down by our hand at most; " + budget.describe() + "); down now: " + which;
        }
    }

    /**
     * The budget's verdict on the set now: which slots are down and whether that is an outage.
     */
    public record Judgement(DisruptionBudget budget, List<SlotAvailability> down, boolean outage) {

        public Judgement {
            down = List.copyOf(down);
        }

        /** How many more slots our procedures may take down now (0 in an outage). */
        public int room() {
            return outage ? 0 : Math.max(0, budget.disruptionsAllowed() - down.size());
        }

        /** "3 of 3 slots down (pg-0: CVM status stopped; ...)". */
        public String downSummary() {
            String which = down.isEmpty() ? "" : " (" + down.stream().map(s -> s.slot() + ": " + s.why())
                    .collect(Collectors.joining("; ")) + ")";
            return down.size() + " of " + budget.members + " slots down" + which;
        }

        /** "3 of 3 slots down (pg-0: CVM status stopped; ...); quorum 1 of 3, tolerates 2 down". */
        public String summary() {
            return downSummary() + "; " + budget.describe();
        }
    }
}
