package com.statefulcvm.delegates.procedure;

/**
 * The variable names every procedure shares (a slot's step reads {@code replicaSet} and {@code slot} whichever
 * procedure runs it). Each procedure's own names class extends this one, so that {@code RolloutVariables.SLOT} and
 * {@code HealVariables.SLOT} name the one declaration here.
 */
public abstract class ProcedureVariables {

    /** The set's name; also the business key of a rollout, scale, failover and lights-out recovery. */
    public static final String REPLICA_SET = "replicaSet";
    /** The slot a step works on ({@code <set>-<ordinal>}): a heal's, a re-attestation's, a loop's element variable. */
    public static final String SLOT = "slot";
    public static final String ORDINAL = "ordinal";
    public static final String REQUESTED_BY = "requestedBy";
    /** What the step is doing or waiting for, in words. */
    public static final String STAGE = "stage";
    /** Why the procedure ended the way it did, in words. */
    public static final String OUTCOME = "outcome";
    public static final String WORKLOAD_TYPE = "workloadType";
    public static final String CVM_POLL_INTERVAL = "cvmPollInterval";
    public static final String PLAN_SUMMARY = "planSummary";
    /** The slot's CVM can be reached (running and settled). */
    public static final String CVM_REACHABLE = "cvmReachable";
    /** The compose the slot's CVM is to run (a {@code ComposeValue}). */
    public static final String TARGET_COMPOSE = "targetCompose";
    /** The instance_id the slot must keep (a restart, a re-attestation); a replacement must not reuse it. */
    public static final String BOUND_INSTANCE_ID = "boundInstanceId";
    /** The set's current revision(s); the attestation step adds the revision being rolled out. */
    public static final String ALLOWED_COMPOSE_HASHES = "allowedComposeHashes";
    /** Local to a step: whether the instance passed attestation (false until it has). */
    public static final String ATTESTED = "attested";
    /**
     * Local to a job's execution while Phala Cloud is unreachable: since when, and what it waits for (the job is paused
     * until Phala answers again; the variable goes then).
     */
    public static final String PHALA_CLOUD_UNREACHABLE = "phalaCloudUnreachable";

    /** A slot's attempt within its procedure (a retry of a halted slot is a new attempt, counted by the diagram). */
    public static final String SLOT_ATTEMPT = "slotAttempt";

    /** A start form's (Tasklist) reason field: the start check turns it into the procedure's reason in words. */
    public static final String REASON = "reason";

    protected ProcedureVariables() {
    }

    /** {@code requested by <user>[: <reason>]}: how a procedure's reason variable reads when an operator asked for it. */
    public static String requestedByWithReason(String user, String reason) {
        return "requested by " + user + (reason == null ? "" : ": " + reason);
    }
}
