package com.statefulcvm.delegates.support;

/**
 * Whether the procedure instance a step's effect belongs to still runs. A step's job may outlive its procedure (an
 * operator aborts a rollout while the step waits on Phala's retries): its transaction will not commit, but a call to
 * Phala it made meanwhile would stand, overlapping whatever runs next on the set.
 */
@FunctionalInterface
public interface ProcedureLiveness {

    /** For callers outside the engine, and tests: every procedure runs. */
    ProcedureLiveness ALWAYS = processInstanceId -> true;

    /** @param processInstanceId the effect's process instance (a called procedure's own, when it is one) */
    boolean runs(String processInstanceId);
}
