package com.statefulcvm.simulator.cloud;

import java.util.List;

import com.statefulcvm.simulator.SimulatorProperties.Timings;

/**
 * The lifecycle rules: which status each operation enters at once, which statuses follow after which delays,
 * and which operations a CVM accepts in its current status.
 */
final class CvmLifecycle {

    static final String CREATING = "creating";
    static final String PENDING = "pending";
    static final String STARTING = "starting";
    static final String RUNNING = "running";
    static final String RESTARTING = "restarting";
    static final String UPDATING = "updating";
    static final String STOPPING = "stopping";
    static final String SHUTTING_DOWN = "shutting_down";
    static final String STOPPED = "stopped";
    static final String DELETING = "deleting";
    /** Not a status a CVM is ever seen in: the {@code to} of the event recording its removal. */
    static final String DELETED = "deleted";

    /** An operation's plan: the status entered when it is accepted, then the hops. */
    record Plan(String initialStatus, List<Operation.Hop> hops) {
    }

    private CvmLifecycle() {
    }

    /**
     * @param initialCreateStatus {@link #CREATING} for a commit, {@link #PENDING} for a new instance (CREATE only)
     */
    static Plan plan(OperationType type, Timings t, String initialCreateStatus) {
        return switch (type) {
            case CREATE -> new Plan(initialCreateStatus,
                    List.of(new Operation.Hop(STARTING, t.getCreateMs()), new Operation.Hop(RUNNING, t.getStartMs())));
            case START -> new Plan(STARTING, List.of(new Operation.Hop(RUNNING, t.getStartMs())));
            case STOP -> new Plan(STOPPING, List.of(new Operation.Hop(STOPPED, t.getStopMs())));
            case SHUTDOWN -> new Plan(SHUTTING_DOWN, List.of(new Operation.Hop(STOPPED, t.getShutdownMs())));
            case RESTART -> new Plan(RESTARTING, List.of(new Operation.Hop(RUNNING, t.getRestartMs())));
            case UPDATE_COMPOSE, UPDATE_ENV, REDEPLOY ->
                    new Plan(UPDATING, List.of(new Operation.Hop(RUNNING, t.getUpdateMs())));
            case DELETE -> new Plan(DELETING, List.of(new Operation.Hop(DELETED, t.getDeleteMs())));
        };
    }

    /**
     * Refuses an operation the CVM cannot take now: 409 (no error_code, so clients retry) while another operation is
     * in progress; 400 for a start of a running CVM, a stop/shutdown of a stopped one, a restart of a stopped one.
     */
    static void checkAccepts(SimulatedCvm cvm, OperationType type) {
        if (cvm.operation != null) {
            throw ApiException.inProgress();
        }
        boolean running = RUNNING.equals(cvm.status);
        switch (type) {
            case START -> {
                if (running) {
                    throw ApiException.badRequest("CVM is already running");
                }
            }
            case STOP, SHUTDOWN -> {
                if (STOPPED.equals(cvm.status)) {
                    throw ApiException.badRequest("CVM is already stopped");
                }
            }
            case RESTART -> {
                if (!running) {
                    throw ApiException.badRequest("CVM is not running; start it instead");
                }
            }
            default -> {
                // updates, redeploy and delete are accepted from any settled status
            }
        }
    }
}
