package com.statefulcvm.fleet.adoption;

import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * An approver's acceptance of a set whose app was made elsewhere (Terraform, the CLI, the dashboard): from then on the
 * orchestrator acts on its CVMs. Before it, the set is only observed.
 *
 * @param revision the revision recorded from what the set ran when it was adopted
 * @param summary  what was accepted, in words (slots, composes, refusals kept running)
 * @param slotRevisions each adopted slot's ordinal to the revision it ran: {@code revision} for most, another for a
 *                      slot of a mixed set, whose compose stays admitted for that slot until a rollout converges it
 */
public record Adoption(String replicaSet, String appId, int revision, String adoptedBy, Instant adoptedAt, String summary,
                       Map<Integer, Integer> slotRevisions) {

    public Adoption {
        slotRevisions = slotRevisions == null ? Map.of() : Map.copyOf(slotRevisions);
    }

    /** The revision the slot ran when adopted, when it was not the set's first revision. */
    public Optional<Integer> otherRevisionOf(int ordinal) {
        Integer ran = slotRevisions.get(ordinal);
        return ran == null || ran == revision ? Optional.empty() : Optional.of(ran);
    }
}
