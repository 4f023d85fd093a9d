package com.statefulcvm.delegates.procedure;

/**
 * Names of run-hook.bpmn and the workload procedures it calls (drain-, rejoin-, add-, join-, leave-,
 * sequence-&lt;type&gt;). The hook's timeout, poll interval and default result are the calling procedure's
 * ({@link RolloutVariables#HOOK_TIMEOUT} ...).
 */
public final class HookVariables extends ProcedureVariables {

    /** Which hook run-hook.bpmn runs ({@code drain}, {@code rejoin}, ...). */
    public static final String HOOK = "hook";
    /** A hook step's answer: whether the procedure may go on (the diagram polls until true). */
    public static final String HOOK_READY = "hookReady";
    /** The hook's last stage, copied up to run-hook so that a timeout can say what the hook waited for. */
    public static final String HOOK_STAGE = "hookStage";
    /** Whether the slot leads its workload now (etcd, Consul). */
    public static final String IS_LEADER = "isLeader";
    /** Patroni's drain: SWITCHOVER, NONE ... ({@code DecidePatroniDrain}). */
    public static final String DRAIN_DECISION = "drainDecision";
    public static final String SWITCHOVER_CANDIDATE = "switchoverCandidate";
    /** Consul's leave: sent once, then waited for. */
    public static final String CONSUL_LEAVE_SENT = "consulLeaveSent";

    private HookVariables() {
    }
}
