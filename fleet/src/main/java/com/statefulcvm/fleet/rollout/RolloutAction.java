package com.statefulcvm.fleet.rollout;

import com.statefulcvm.fleet.UpdateAction;

/** One row of a plan: what happens to one slot, or to a temporary surge slot. */
public enum RolloutAction {
    /** Create a temporary extra instance on the target revision and admit it before any old one goes down. */
    ADD_SURGE(UpdateAction.NONE),
    /** Re-observe, re-attest and record; no restart. */
    REFRESH(UpdateAction.REFRESH),
    /** Update the compose in place, or restart when the compose is already the target: the CVM keeps its disk. */
    RESTART(UpdateAction.RESTART),
    /** Delete the CVM and create a new one in the same slot on the target revision. */
    REPLACE(UpdateAction.REPLACE),
    /** Drain and delete a surge instance once every wave is done. */
    REMOVE_SURGE(UpdateAction.NONE),
    /** Leave the slot as it is; the step's reason says why. */
    NONE(UpdateAction.NONE);

    private final UpdateAction level;

    RolloutAction(UpdateAction level) {
        this.level = level;
    }

    public UpdateAction level() {
        return level;
    }

    public static RolloutAction of(UpdateAction action) {
        return switch (action) {
            case NONE -> NONE;
            case REFRESH -> REFRESH;
            case RESTART -> RESTART;
            case REPLACE -> REPLACE;
        };
    }
}
