package com.statefulcvm.fleet.admission;

import java.time.Instant;

/**
 * A slot whose instance failed attestation when fencing it would have taken the set past its disruption budget: the
 * instance keeps running, is not admitted (the monitor neither counts nor heals it, and nothing readmits it on its
 * own), and an approver decides in Tasklist whether to fence it anyway, pin the platform it showed, or wait. It stands
 * for the instance's boot that was refused: a new boot is attested again, and an admission lifts it.
 *
 * @param code     the refusal's class (QUOTE_INVALID, ADMISSION_REJECTED, ...)
 * @param reason   the verdict in words, its code first, as a fence would record it
 * @param platform the measurements the refused evidence showed ("MRTD …, RTMR0 …"), null when it showed none
 * @param runningCompose the docker compose the instance runs when that is why it was refused (changed behind our
 *                       back: Terraform, the CLI, the dashboard), as its attested app compose shows it; null otherwise
 */
public record Refusal(String replicaSet, int ordinal, String instanceId, String code, String reason, String platform,
                      Instant refusedAt, String refusedBy, String runningCompose) {

    /** The same refusal without the running compose: the monitor's reads need no compose text. */
    public Refusal(String replicaSet, int ordinal, String instanceId, String code, String reason, String platform,
                   Instant refusedAt, String refusedBy) {
        this(replicaSet, ordinal, instanceId, code, reason, platform, refusedAt, refusedBy, null);
    }

    /** True when the instance was refused because it runs a compose none of our revisions has. */
    public boolean drifted() {
        return runningCompose != null;
    }

    /** "refused, kept running unadmitted (...): ADMISSION_REJECTED: ...": what the API and the monitor say of the slot. */
    public String summary() {
        return "refused, kept running unadmitted (fencing it would exceed the disruption budget): " + reason;
    }

    /** The slot's condition while the refusal stands. */
    public String condition() {
        return "AttestationRefused: " + reason + "; kept running, not admitted: fencing it would exceed the disruption"
                + " budget (an approver decides in Tasklist)";
    }
}
