package com.statefulcvm.fleet.effects;

/** Where an intended effect stands, as far as the orchestrator knows. */
public enum EffectState {
    /** Recorded, the call not known to have ended: it may be under way, or its caller died. */
    INTENDED,
    /** The call ended without a verdict (a 5xx, no answer): Phala may or may not have taken it. */
    UNCERTAIN,
    /** Phala accepted the call, or showed afterwards that it had. */
    APPLIED,
    /** Phala refused the call (a 4xx), or showed afterwards that it had not taken it: it may be asked again. */
    NOT_APPLIED;

    /** True while only Phala can tell whether the effect happened. */
    public boolean open() {
        return this == INTENDED || this == UNCERTAIN;
    }
}
