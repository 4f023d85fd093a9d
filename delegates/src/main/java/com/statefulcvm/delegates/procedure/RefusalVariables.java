package com.statefulcvm.delegates.procedure;

/**
 * Names of decide-attestation-refusals.bpmn: one per set (business key: the set's name), started when a refused
 * instance is kept running because fencing it would take the set past its disruption budget.
 */
public final class RefusalVariables extends ProcedureVariables {

    public static final String PROCESS_KEY = "decide-attestation-refusals";
    /** How many slots of the set stand refused and unfenced now. */
    public static final String REFUSED_COUNT = "refusedCount";
    /** Each refused slot, its cause and the platform its evidence showed, one line each, for the approver. */
    public static final String REFUSED_INSTANCES = "refusedInstances";
    /** The platforms the set pins now, for the approver to compare with the refused evidence. */
    public static final String PINNED_PLATFORMS = "pinnedPlatforms";
    /** The approver's choice: {@link #FENCE}, {@link #PIN}, {@link #ADOPT}, {@link #ROLL_BACK} or {@link #WAIT}. */
    public static final String DECISION = "decision";
    public static final String FENCE = "fence";
    public static final String PIN = "pin";
    public static final String ADOPT = "adopt";
    public static final String ROLL_BACK = "rollback";
    /** The rollout a "rollback" started; null when none could start. */
    public static final String ROLLBACK_ROLLOUT = DriftRollbacks.ROLLBACK_ROLLOUT;
    /** What the approver's rollback did. */
    public static final String ROLLED_BACK_BY_DECISION = "rolledBackByDecision";
    public static final String WAIT = "wait";
    /** How long a "wait" waits before the refusals are looked at, and asked about, again (ISO-8601). */
    public static final String ASK_AGAIN_AFTER = "askAgainAfter";
    /** Who decided, the authenticated user who completed the task. */
    public static final String DECIDED_BY = "decidedBy";
    /** The slots the approver's decision fenced, for the drains under on-failure DRAIN. */
    public static final String FENCED_SLOTS = "fencedSlots";
    /** The diff from the set's current revision to the compose drifted instances run; absent without drift. */
    public static final String DRIFT_DIFF = "driftDiff";
    /** The revision an approver's "adopt" recorded; null when nothing was adopted. */
    public static final String ADOPTED_REVISION = "adoptedRevision";
    /** What the approver's adopt did. */
    public static final String ADOPTED_BY_DECISION = "adoptedByDecision";
    /** What the approver's pin did, one line per slot. */
    public static final String PINNED_BY_DECISION = "pinnedByDecision";
    /** What the approver's fence did, one line per slot. */
    public static final String FENCED_BY_DECISION = "fencedByDecision";

    private RefusalVariables() {
    }
}
