package com.statefulcvm.fleet.lightsout;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the replicas of a set answered when asked for their sequence number (the position of the last write each one
 * holds: a WAL LSN, a raft index, an application's own counter), in slot order. The seed is the replica with the
 * largest number; among equals the lowest ordinal, so that the choice is the same every time it is made. A replica
 * that did not answer is never given a number: it is listed with the reason, and it is never chosen.
 *
 * @param slots      every slot of the set, lowest ordinal first
 * @param answered   slot to sequence number, for the replicas that answered
 * @param sources    slot to what the number is, in words (e.g. "raft index 812, term 4")
 * @param unanswered slot to why it has no number
 */
public record SequenceNumbers(List<String> slots, Map<String, Long> answered, Map<String, String> sources,
                              Map<String, String> unanswered) {

    public SequenceNumbers {
        slots = List.copyOf(slots);
        answered = new LinkedHashMap<>(answered);
        sources = new LinkedHashMap<>(sources);
        unanswered = new LinkedHashMap<>(unanswered);
    }

    /** The replica with the largest number (the lowest ordinal among equals); empty when none answered. */
    public Optional<String> seed() {
        String best = null;
        for (String slot : slots) {
            Long number = answered.get(slot);
            if (number != null && (best == null || number > answered.get(best))) {
                best = slot;
            }
        }
        return Optional.ofNullable(best);
    }

    /** Every slot but the seed, lowest ordinal first: the order in which they join as followers. */
    public List<String> followersOf(String seed) {
        List<String> followers = new ArrayList<>(slots);
        followers.remove(seed);
        return followers;
    }

    /** One line per replica, in slot order, as the operator's form and the procedure's outcome show them. */
    public String report() {
        Optional<String> seed = seed();
        StringBuilder text = new StringBuilder();
        for (String slot : slots) {
            if (!text.isEmpty()) {
                text.append('\n');
            }
            text.append(slot).append(": ");
            if (answered.containsKey(slot)) {
                text.append(answered.get(slot));
                String source = sources.get(slot);
                if (source != null && !source.isBlank()) {
                    text.append(" (").append(source).append(')');
                }
                if (seed.isPresent() && seed.get().equals(slot)) {
                    text.append(" <- largest: the seed");
                }
            } else {
                text.append("NO ANSWER: ").append(unanswered.getOrDefault(slot, "not asked"));
            }
        }
        return text.toString();
    }
}
