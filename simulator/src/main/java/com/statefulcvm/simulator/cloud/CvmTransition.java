package com.statefulcvm.simulator.cloud;

/**
 * One status change of one CVM, as {@link CvmTransitionListener}s see it: {@code from} null when the CVM is created,
 * {@code to} {@code "deleted"} when it is removed, {@code crash} true for an admin crash (the CVM stops at once).
 */
public record CvmTransition(String cvm, String vmUuid, String from, String to, boolean crash) {

    public static final String RUNNING = CvmLifecycle.RUNNING;
    public static final String STOPPED = CvmLifecycle.STOPPED;
    public static final String DELETED = CvmLifecycle.DELETED;

    /** The CVM enters {@code running} from any other status: its workload starts. */
    public boolean entersRunning() {
        return RUNNING.equals(to) && !RUNNING.equals(from);
    }

    /** The CVM is removed, and its disk with it. */
    public boolean deletes() {
        return DELETED.equals(to);
    }

    /** The CVM leaves {@code running} (stop, shutdown, restart, update, redeploy, delete, crash). */
    public boolean leavesRunning() {
        return RUNNING.equals(from) && !RUNNING.equals(to);
    }
}
