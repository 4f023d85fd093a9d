package com.statefulcvm.delegates.procedure;

/** Names of the heal process, its message and variables, shared by delegates, REST and tests. */
public final class HealVariables extends ProcedureVariables {

    public static final String HEAL_PROCESS = "heal";
    /** The message whose start event begins heal.bpmn; correlated with business key {@code <set>/<ordinal>}. */
    public static final String HEAL_MESSAGE = "HealInstance";

    // --- in: what a heal is started with
    /** Why the heal was started, in words (the monitor's verdict, or the operator's reason). */
    public static final String HEAL_REASON = "healReason";
    /** {@code monitor}, {@code operator} or {@code readmit}. */
    public static final String HEAL_TRIGGER = "healTrigger";

    // --- set by "Prepare the heal"
    public static final String HEAL_APPROVAL = "healApproval";
    public static final String ON_DATA_LOSS = "onDataLoss";
    public static final String CVM_PRESENT = "cvmPresent";
    /** The compose the CVM runs now: a restart keeps it. */
    public static final String RESTART_COMPOSE = "restartCompose";
    /** slot → RESTART and slot → REPLACE: the one action each phase plans for its slot (read by the shared steps). */
    public static final String RESTART_ACTIONS = "restartActions";
    public static final String REPLACE_ACTIONS = "replaceActions";
    public static final String HEAL_DEADLINE = "healDeadline";
    public static final String EPOCH = "epoch";

    // --- set along the way
    /** Why the heal could not finish on its own: what the operator's task shows. */
    public static final String HEAL_FAILURE = "healFailure";
    /** How the heal ended: restarted, replaced, resolved, rejected or stopped. */
    public static final String HEAL_RESULT = "healResult";

    // --- the monitor
    /**
     * The health monitor's process of earlier versions (monitor-health.bpmn). The monitor now runs outside the engine;
     * running instances of it left in a database are ended at start-up.
     */
    public static final String MONITOR_PROCESS = "monitor-health";

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
