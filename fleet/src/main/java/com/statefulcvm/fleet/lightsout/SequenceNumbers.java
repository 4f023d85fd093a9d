package com.statefulcvm.fleet.lightsout;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the replicas of a set answered when asked for their sequence number (the position of the last write each one
 * holds: a WAL LSN, a raft index, an application's own counter), in slot order. Where the store has generations of
 * history (Patroni's timeline: a replica promoted after a failover starts a new one), the position is compared as
 * {@code (generation, number)} in that order: a replica on an older timeline with a higher LSN holds a history the
 * newer timeline has left behind, and must not win. The seed is the replica with the largest position; among equals
 * the lowest ordinal, so that the choice is the same every time it is made. A replica that did not answer is never given
 * a number: it is listed with the reason, and it is never chosen. A fenced slot is listed and never chosen nor a follower.
 *
 * @param slots       every slot of the set, lowest ordinal first
 * @param answered    slot to sequence number, for the replicas that answered
 * @param sources     slot to what the number is, in words (e.g. "raft index 812, term 4")
 * @param unanswered  slot to why it has no number
 * @param generations slot to its generation (Patroni's timeline), for the replicas whose store has them
 * @param fenced      slot to its fence, for the fenced slots the recovery leaves alone
 */
public record SequenceNumbers(List<String> slots, Map<String, Long> answered, Map<String, String> sources,
                              Map<String, String> unanswered, Map<String, Long> generations, Map<String, String> fenced) {

    public SequenceNumbers {
        slots = List.copyOf(slots);
        answered = new LinkedHashMap<>(answered);
        sources = new LinkedHashMap<>(sources);
        unanswered = new LinkedHashMap<>(unanswered);
        generations = new LinkedHashMap<>(generations);
        fenced = new LinkedHashMap<>(fenced);
    }

    public SequenceNumbers(List<String> slots, Map<String, Long> answered, Map<String, String> sources, Map<String, String> unanswered) {
        this(slots, answered, sources, unanswered, Map.of(), Map.of());
    }

    /** (generation, number): a replica without a generation counts as generation 0. */
    private Comparator<String> byPosition() {
        return Comparator.<String>comparingLong(slot -> generations.getOrDefault(slot, 0L)).thenComparingLong(answered::get);
    }

    /** The replica with the largest position (the lowest ordinal among equals); empty when none answered. */
    public Optional<String> seed() {
        Comparator<String> position = byPosition();
        String best = null;
        for (String slot : slots) {
            if (answered.containsKey(slot) && !fenced.containsKey(slot) && (best == null || position.compare(slot, best) > 0)) {
                best = slot;
            }
        }
        return Optional.ofNullable(best);
    }

    /** Whether the slot may be seeded: a slot of the set that is not fenced. */
    public boolean seedable(String slot) {
        return slots.contains(slot) && !fenced.containsKey(slot);
    }

    /**
     * The members released right after the seed, before its health gate, so that it has a quorum to serve with: a raft
     * store's seed alone elects no leader. The {@code quorum - 1} answered, unfenced replicas with the largest positions
     * (the lowest ordinal among equals): with the seed they form a majority whose most recent log is the seed's, so the
     * leader raft elects among them holds every committed entry. Empty for a store that serves from one member.
     */
    public List<String> quorumPartnersOf(String seed, int quorum) {
        Comparator<String> position = byPosition();
        List<String> candidates = new ArrayList<>();
        for (String slot : slots) {
            if (!slot.equals(seed) && answered.containsKey(slot) && !fenced.containsKey(slot)) {
                candidates.add(slot);
            }
        }
        candidates.sort(position.reversed());   // a stable sort: among equals the lowest ordinal stays first
        return List.copyOf(candidates.subList(0, Math.max(0, Math.min(quorum - 1, candidates.size()))));
    }

    /** Every slot but the seed and the fenced ones, lowest ordinal first: the order in which they join as followers. */
    public List<String> followersOf(String seed) {
        List<String> followers = new ArrayList<>(slots);
        followers.remove(seed);
        followers.removeAll(fenced.keySet());
        return followers;
    }

    /**
     * Whether every replica that may seed answered and answered an empty state (position 0, generation 0): seeding one
     * would start the set from no data, as after a wipe or a compose that lost its volume. mariadb-operator refuses
     * such a bootstrap too; here only an approver's override with a reason goes on.
     */
    public boolean everyReplicaEmpty() {
        List<String> seedable = slots.stream().filter(s -> !fenced.containsKey(s)).toList();
        return !seedable.isEmpty() && seedable.stream().allMatch(s -> answered.containsKey(s)
                && answered.get(s) <= 0 && generations.getOrDefault(s, 0L) <= 0);
    }

    /** One line per replica, in slot order, as the operator's form and the procedure's outcome show them. */
    public String report() {
        return report("the seed");
    }

    /** The same lines for a set that runs (an adoption's survey): the most recent replica is marked, nobody is seeded. */
    public String observed() {
        return report("the most recent data");
    }

    private String report(String mostRecent) {
        Optional<String> seed = seed();
        StringBuilder text = new StringBuilder();
        for (String slot : slots) {
            if (!text.isEmpty()) {
                text.append('\n');
            }
            text.append(slot).append(": ");
            if (fenced.containsKey(slot)) {
                text.append("FENCED, not started: ").append(fenced.get(slot));
            } else if (answered.containsKey(slot)) {
                if (generations.containsKey(slot)) {
                    text.append("generation ").append(generations.get(slot)).append(", ");
                }
                text.append(answered.get(slot));
                String source = sources.get(slot);
                if (source != null && !source.isBlank()) {
                    text.append(" (").append(source).append(')');
                }
                if (seed.isPresent() && seed.get().equals(slot)) {
                    text.append(generations.isEmpty() ? " <- largest: " + mostRecent : " <- most recent (generation, then position): " + mostRecent);
                }
            } else {
                text.append("NO ANSWER: ").append(unanswered.getOrDefault(slot, "not asked"));
            }
        }
        return text.toString();
    }
}
