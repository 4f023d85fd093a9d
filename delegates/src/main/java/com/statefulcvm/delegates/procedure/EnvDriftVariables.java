package com.statefulcvm.delegates.procedure;

/**
 * Names of decide-env-drift.bpmn: one per set (business key: the set's name), started when a slot's CVM is seen
 * running env values nobody here sent or accepted (changed behind our back by Terraform, the CLI or the dashboard).
 */
public final class EnvDriftVariables extends ProcedureVariables {

    public static final String PROCESS_KEY = "decide-env-drift";
    /** How many slots of the set run a drifted env now. */
    public static final String DRIFTED_COUNT = "driftedCount";
    /** Each drifted slot: who changed its env and when, the variable names recorded and running; never a value. */
    public static final String DRIFTED_ENVS = "driftedEnvs";
    /** The slots that drifted, comma-separated ordinals, as the decision saw them. */
    public static final String DRIFTED_ORDINALS = "driftedOrdinals";
    /** The approver's choice: {@link #ADOPT}, {@link #ROLL_BACK} or {@link #WAIT}. */
    public static final String DECISION = "decision";
    public static final String ADOPT = "adopt";
    public static final String ROLL_BACK = "rollback";
    public static final String WAIT = "wait";
    /** How long a "wait" waits before the drift is looked at, and asked about, again (ISO-8601). */
    public static final String ASK_AGAIN_AFTER = "askAgainAfter";
    /** Who decided, the authenticated user who completed the task. */
    public static final String DECIDED_BY = "decidedBy";
    /** What the decision did. */
    public static final String OUTCOME = "envDriftOutcome";
    /** The rollout a "rollback" started. */
    public static final String ROLLBACK_ROLLOUT = DriftRollbacks.ROLLBACK_ROLLOUT;

    private EnvDriftVariables() {
    }
}
