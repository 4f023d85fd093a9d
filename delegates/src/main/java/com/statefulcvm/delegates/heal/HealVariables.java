package com.statefulcvm.delegates.heal;

/** Names of the heal and health-monitor processes, their messages and variables, shared by delegates, REST and tests. */
public final class HealVariables {

    public static final String HEAL_PROCESS = "heal";
    public static final String MONITOR_PROCESS = "monitor-health";
    /** The message whose start event begins heal.bpmn; correlated with business key {@code <set>/<ordinal>}. */
    public static final String HEAL_MESSAGE = "HealInstance";

    // --- in: what a heal is started with
    public static final String REPLICA_SET = "replicaSet";
    public static final String ORDINAL = "ordinal";
    public static final String SLOT = "slot";
    /** Why the heal was started, in words (the monitor's verdict, or the operator's reason). */
    public static final String HEAL_REASON = "healReason";
    /** {@code monitor}, {@code operator} or {@code readmit}. */
    public static final String HEAL_TRIGGER = "healTrigger";
    public static final String REQUESTED_BY = "requestedBy";

    // --- set by "Prepare the heal"
    public static final String HEAL_APPROVAL = "healApproval";
    public static final String ON_DATA_LOSS = "onDataLoss";
    public static final String CVM_PRESENT = "cvmPresent";
    public static final String CVM_REACHABLE = "cvmReachable";
    /** The compose the CVM runs now: a restart keeps it. */
    public static final String RESTART_COMPOSE = "restartCompose";
    /** slot → RESTART and slot → REPLACE: the one action each phase plans for its slot (read by the shared steps). */
    public static final String RESTART_ACTIONS = "restartActions";
    public static final String REPLACE_ACTIONS = "replaceActions";
    /** The instance_id the slot had when the heal began: a restart must keep it, a replacement must not reuse it. */
    public static final String BOUND_INSTANCE_ID = "boundInstanceId";
    public static final String HEAL_DEADLINE = "healDeadline";
    public static final String EPOCH = "epoch";

    // --- set along the way
    /** Why the heal could not finish on its own: what the operator's task shows. */
    public static final String HEAL_FAILURE = "healFailure";
    /** How the heal ended: restarted, replaced, resolved, rejected or stopped. */
    public static final String HEAL_RESULT = "healResult";

    // --- the monitor
    public static final String MONITOR_INTERVAL = "monitorInterval";
    /** Until the next round: the interval less this round's duration, so that rounds start one interval apart. */
    public static final String MONITOR_WAIT = "monitorWait";
    public static final String MONITOR_STARTED_AT = "monitorStartedAt";
    public static final String ROUND = "round";
    public static final String KEEP_MONITORING = "keepMonitoring";
    public static final String GENERATION_DONE = "generationDone";
    /**
     * On the set's monitor instance: how many heals have been started for the set. Every heal start increments it in
     * its own transaction, so two concurrent starts for one set conflict on the engine's optimistic locking of this
     * variable and one of them is rolled back; the budget and the one-heal-per-instance checks are therefore never
     * decided by two transactions at once.
     */
    public static final String HEALS_STARTED = "healsStarted";

    public static final String TRIGGER_MONITOR = "monitor";
    public static final String TRIGGER_OPERATOR = "operator";
    /** An operator's readmit of a fenced slot (POST .../readmit): the heal's attestation decides whether it serves again. */
    public static final String TRIGGER_READMIT = "readmit";

    private HealVariables() {
    }

    /** The business key of a heal: {@code <set>/<ordinal>}. */
    public static String businessKey(String replicaSet, int ordinal) {
        return replicaSet + "/" + ordinal;
    }
}
