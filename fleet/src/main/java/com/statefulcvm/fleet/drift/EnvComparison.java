package com.statefulcvm.fleet.drift;

import java.util.Optional;

/**
 * Compares the env a slot's CVM runs (its newest Phala revision's ciphertext) with what the orchestrator knows: the
 * first look at a CVM takes what it runs as known; the env we sent, once seen, becomes known; anything else drifted.
 * A drift that goes away (someone put the known env back) is forgotten.
 */
public final class EnvComparison {

    public enum Verdict {
        /** The first look at this CVM: what it runs is known from now on. */
        FIRST_SEEN,
        /** It runs the known env. */
        KNOWN,
        /** It runs the env we sent: known from now on. */
        SENT_CONFIRMED,
        /** It runs an env nobody here sent or accepted. */
        DRIFTED
    }

    /** The verdict and the slot's record after it ({@code changed}: it differs from the recorded one). */
    public record Judgement(Verdict verdict, SlotEnv next, boolean changed) {

        /** One line for the attestation's checks and the log. */
        public String summary() {
            return switch (verdict) {
                case FIRST_SEEN -> "env: first seen on this CVM, recorded as its env: " + next.known().describe();
                case KNOWN -> "env: the recorded one, " + next.known().describe();
                case SENT_CONFIRMED -> "env: the one we sent (" + next.known().source() + "), " + next.known().describe();
                case DRIFTED -> "env: CHANGED behind our back (" + next.drift().source() + "): runs " + next.drift().describe()
                        + ", recorded " + next.known().describe();
            };
        }
    }

    private EnvComparison() {
    }

    public static Judgement judge(String replicaSet, int ordinal, String vmUuid, Optional<SlotEnv> recorded, EnvValue running) {
        boolean sameCvm = recorded.isPresent() && java.util.Objects.equals(recorded.get().vmUuid(), vmUuid);
        if (sameCvm && running.sameAs(recorded.get().sent())) {
            return new Judgement(Verdict.SENT_CONFIRMED, new SlotEnv(replicaSet, ordinal, vmUuid, recorded.get().sent(), null, null), true);
        }
        if (!sameCvm || recorded.get().known() == null) {
            EnvValue first = new EnvValue(running.digest(), running.encryptedEnv(), running.keys(), "first seen: " + running.source(), running.at());
            return new Judgement(Verdict.FIRST_SEEN, new SlotEnv(replicaSet, ordinal, vmUuid, first,
                    sameCvm ? recorded.get().sent() : null, null), true);
        }
        SlotEnv slot = recorded.get();
        if (running.sameAs(slot.known())) {
            SlotEnv next = new SlotEnv(replicaSet, ordinal, vmUuid, slot.known(), slot.sent(), null);
            return new Judgement(Verdict.KNOWN, next, slot.drifted());
        }
        if (running.sameAs(slot.drift())) {
            return new Judgement(Verdict.DRIFTED, slot, false);
        }
        return new Judgement(Verdict.DRIFTED, new SlotEnv(replicaSet, ordinal, vmUuid, slot.known(), slot.sent(), running), true);
    }
}
