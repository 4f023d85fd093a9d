package com.statefulcvm.fleet.drift;

/**
 * What the orchestrator knows of the env one slot runs. {@code known}: the env it runs as far as we know (sent by us
 * and confirmed, seen on its CVM first, or accepted by an approver); {@code sent}: one we asked Phala for and have not
 * seen running yet; {@code drift}: an env it was seen running that is neither, changed behind our back (Terraform, the
 * CLI, the dashboard). {@code vmUuid}: the CVM all of it is about; another CVM in the slot starts over.
 */
public record SlotEnv(String replicaSet, int ordinal, String vmUuid, EnvValue known, EnvValue sent, EnvValue drift) {

    public boolean drifted() {
        return drift != null;
    }

    public SlotEnv withSent(EnvValue value) {
        return new SlotEnv(replicaSet, ordinal, vmUuid, known, value, drift);
    }

    /** The drifted env accepted as the slot's: nothing drifts any more. */
    public SlotEnv driftAccepted(String by, java.time.Instant at) {
        EnvValue accepted = new EnvValue(drift.digest(), drift.encryptedEnv(), drift.keys(), "accepted by " + by + ": " + drift.source(), at);
        return new SlotEnv(replicaSet, ordinal, vmUuid, accepted, sent, null);
    }
}
