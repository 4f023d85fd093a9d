package com.statefulcvm.simulator.cloud;

/**
 * The answer to an asynchronous update (compose, env, redeploy): {@code in_progress} with the operation's
 * correlation id, or {@code no_change}. {@code allowedEnvsChanged}: the env update changed the set of keys.
 */
public record UpdateOutcome(String status, String correlationId, boolean allowedEnvsChanged) {

    public static final String IN_PROGRESS = "in_progress";
    public static final String NO_CHANGE = "no_change";

    static UpdateOutcome inProgress(String correlationId, boolean allowedEnvsChanged) {
        return new UpdateOutcome(IN_PROGRESS, correlationId, allowedEnvsChanged);
    }

    static UpdateOutcome noChange() {
        return new UpdateOutcome(NO_CHANGE, null, false);
    }

    public boolean started() {
        return IN_PROGRESS.equals(status);
    }
}
