package com.statefulcvm.fleet;

public enum RolloutAction {
    /** Patch the CVM's docker-compose in place: the CVM restarts and keeps its disk and identity. */
    UPDATE_COMPOSE,
    /** Leave the slot as it is; the step's reason says why. */
    SKIP
}
