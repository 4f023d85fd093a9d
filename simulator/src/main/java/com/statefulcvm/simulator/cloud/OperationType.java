package com.statefulcvm.simulator.cloud;

/** The asynchronous operations a CVM goes through; {@link #wireName()} is what the API reports. */
public enum OperationType {
    CREATE("create"),
    START("start"),
    STOP("stop"),
    SHUTDOWN("shutdown"),
    RESTART("restart"),
    UPDATE_COMPOSE("update_compose"),
    UPDATE_ENV("update_env"),
    REDEPLOY("redeploy"),
    DELETE("delete");

    private final String wireName;

    OperationType(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }
}
