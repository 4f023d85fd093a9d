package com.statefulcvm.delegates.procedure;

/** Names of the scale process and its variables, shared by the delegates, the REST API and the tests. */
public final class ScaleVariables extends ProcedureVariables {

    public static final String PROCESS_KEY = "scale";

    // --- in
    /** The count asked for (a JSON number from REST; validated again by "Plan the scale"). */
    public static final String REQUESTED_REPLICAS = "requestedReplicas";
    /** Why, in words: {@code requested by <user>[: <reason>]}. */
    public static final String SCALE_REASON = "scaleReason";

    // --- set by "Plan the scale"
    public static final String CURRENT_REPLICAS = "currentReplicas";
    /** UP, DOWN, NONE, or REFUSED (a request that cannot be planned; {@link #SCALE_REFUSAL} says why). */
    public static final String DIRECTION = "scaleDirection";
    public static final String SCALE_REFUSAL = "scaleRefusal";
    /** Slot names to add, lowest ordinal first. */
    public static final String SLOTS_TO_ADD = "slotsToAdd";
    /** Slot names to remove, highest ordinal first. */
    public static final String SLOTS_TO_REMOVE = "slotsToRemove";
    public static final String MIN_REPLICAS = "minReplicas";
    /** A scale-down below {@link #MIN_REPLICAS}: an operator approves it first. */
    public static final String NEEDS_APPROVAL = "belowMinimum";
    /** RETAIN or DELETE, from scaling.scaleDown. */
    public static final String SCALE_DOWN_POLICY = "scaleDownPolicy";
    /** The fleet file's replicas when the scale was planned: recorded with each new count (DesiredReplicas). */
    public static final String FILE_REPLICAS = "fileReplicas";

    // --- per slot (local to the slot's sub-process)
    /** The slot's CVM was retained by an earlier scale-down: it comes back with its disk and identity. */
    public static final String RETAINED = "retainedSlot";
    public static final String SLOT_REMOVED = "slotRemoved";
    /** Why the scale halted at a slot: what the operator's task shows. */
    public static final String HALT_REASON = "haltReason";

    // --- out
    /** scaled, partly-scaled, no-change, rejected, stopped or refused. */
    public static final String SCALE_RESULT = "scaleResult";
    /** JSON list of {slot, ordinal, action, result, at}: what the scale did to each slot. */
    public static final String SLOTS_DONE = "slotsDone";

    public static final String UP = "UP";
    public static final String DOWN = "DOWN";
    public static final String NONE = "NONE";
    public static final String REFUSED = "REFUSED";

    /** Scale's start form field (Tasklist): the count asked for; the start check turns it into {@link #REQUESTED_REPLICAS}. */
    public static final String REPLICAS = "replicas";

    private ScaleVariables() {
    }
}
