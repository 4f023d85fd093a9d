package com.statefulcvm.simulator.cloud;

/**
 * The answer to an asynchronous update (compose, env, redeploy): {@code in_progress} with the operation's
 * correlation id; {@code allowedEnvsChanged}: the env update changed the set of keys. There is no "no change": the
 * SDK's result schemas know only {@code in_progress} and {@code precondition_required}, so an update identical to
 * what the CVM runs is an update all the same (the CVM restarts).
 */
public record UpdateOutcome(String status, String correlationId, boolean allowedEnvsChanged) {

    public static final String IN_PROGRESS = "in_progress";

    static UpdateOutcome inProgress(String correlationId, boolean allowedEnvsChanged) {
        return new UpdateOutcome(IN_PROGRESS, correlationId, allowedEnvsChanged);
    }

    public boolean started() {
        return IN_PROGRESS.equals(status);
    }
}
