package com.statefulcvm.fleet.failover;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Which replica takes over when a leader-based workload has lost its leader and has not elected another one: the
 * healthy replica with the most recent data, so that a failover loses as little as possible. Most recent is the
 * newest timeline first (a replica still on an older timeline holds a history the newer one left behind, whatever its
 * LSN), then the highest received WAL position (what reached the replica's disk), then the highest replayed one (what
 * it can serve at once), then the name, so the choice is the same whoever makes it. Healthy: PostgreSQL runs as a
 * replica, the member is not tagged {@code nofailover}, its slot is not fenced (its attestation failed: only an
 * operator's readmit brings it back), and it reports where its data is; a replica that cannot say how far it got is
 * never promoted over one that can.
 */
public final class FailoverCandidate {

    private static final Set<String> UP_STATES = Set.of("running", "streaming");
    private static final Set<String> LEADER_ROLES = Set.of("leader", "standby_leader", "master", "primary");

    private FailoverCandidate() {
    }

    /**
     * One member as the failover sees it.
     *
     * @param timeline null when the member does not report it
     * @param received null when the member does not report it (not streaming, not answering)
     * @param replayed null when the member does not report it
     * @param fenced   its slot's fence, null when it has none
     */
    public record Replica(String name, String role, String state, boolean noFailover, Long timeline, Lsn received, Lsn replayed,
                          String fenced) {

        public Replica(String name, String role, String state, boolean noFailover, Lsn received, Lsn replayed) {
            this(name, role, state, noFailover, null, received, replayed, null);
        }

        /** Why this member may not take over; empty when it may. */
        public Optional<String> unfitBecause() {
            if (fenced != null) {
                return Optional.of("it is " + fenced);
            }
            if (role != null && LEADER_ROLES.contains(role)) {
                return Optional.of("it is listed as the leader");
            }
            if (state == null || !UP_STATES.contains(state)) {
                return Optional.of("PostgreSQL is " + (state == null ? "not answering" : state));
            }
            if (noFailover) {
                return Optional.of("it is tagged nofailover");
            }
            if (received == null && replayed == null) {
                return Optional.of("it reports no WAL position");
            }
            return Optional.empty();
        }

        /** The position its data reaches: received when known, else replayed. */
        public Lsn dataPosition() {
            return received != null ? received : replayed;
        }

        /** {@code pg-1 (timeline 2, received 0/5000060, replayed 0/5000060)}. */
        public String describe() {
            return name + " (" + (timeline == null ? "" : "timeline " + timeline + ", ") + "received "
                    + (received == null ? "unknown" : received) + ", replayed " + (replayed == null ? "unknown" : replayed) + ")";
        }
    }

    /** The chosen member, or none, and why, in words an operator can act on. */
    public record Choice(Optional<Replica> candidate, String reason) {

        public boolean found() {
            return candidate.isPresent();
        }

        public String candidateName() {
            return candidate.map(Replica::name).orElse(null);
        }
    }

    private static final Comparator<Replica> MOST_RECENT_FIRST = Comparator
            .comparingLong((Replica r) -> r.timeline() == null ? 0 : r.timeline()).reversed()
            .thenComparing(Replica::dataPosition, Comparator.reverseOrder())
            .thenComparing((Replica r) -> r.replayed() == null ? Lsn.of(0) : r.replayed(), Comparator.reverseOrder())
            .thenComparing(Replica::name);

    /**
     * @param members   every member the workload reports (the old leader may be among them, or already gone)
     * @param oldLeader the member that lost leadership: never a candidate; null when unknown
     */
    public static Choice choose(List<Replica> members, String oldLeader) {
        List<Replica> others = members.stream().filter(m -> !m.name().equals(oldLeader)).toList();
        if (others.isEmpty()) {
            return new Choice(Optional.empty(), "no replica to promote: the workload reports no member besides "
                    + (oldLeader == null ? "the lost leader" : oldLeader));
        }
        List<Replica> fit = others.stream().filter(r -> r.unfitBecause().isEmpty()).sorted(MOST_RECENT_FIRST).toList();
        if (fit.isEmpty()) {
            return new Choice(Optional.empty(), "no healthy replica to promote: " + String.join("; ",
                    others.stream().map(r -> r.name() + ": " + r.unfitBecause().orElseThrow()).toList()));
        }
        Replica best = fit.get(0);
        StringBuilder reason = new StringBuilder("promote ").append(best.describe()).append(": the most recent data");
        if (fit.size() > 1) {
            reason.append(" of ").append(String.join(", ", fit.stream().map(Replica::describe).toList()));
        }
        others.stream().filter(r -> r.unfitBecause().isPresent())
                .forEach(r -> reason.append("; not ").append(r.name()).append(": ").append(r.unfitBecause().orElseThrow()));
        return new Choice(Optional.of(best), reason.toString());
    }
}
