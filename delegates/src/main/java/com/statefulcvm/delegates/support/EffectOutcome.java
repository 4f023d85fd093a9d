package com.statefulcvm.delegates.support;

import com.statefulcvm.fleet.effects.EffectIntent;

/**
 * What {@link PhalaEffects} did about one effect: asked Phala now, found it applied already, or found an earlier request
 * whose outcome Phala does not show yet (the step waits and looks again).
 *
 * @param text in words, for the process's {@code stage} variable
 */
public record EffectOutcome(Kind kind, EffectIntent intent, String text) {

    public enum Kind {
        /** Phala accepted the call just made. */
        REQUESTED,
        /** An earlier run's call took (the intent said so, or Phala showed it): nothing was asked again. */
        ALREADY_APPLIED,
        /** An earlier call's outcome is not known yet: nothing was asked; look again later. */
        PENDING
    }

    /** Asked now or before, and taken: the effect is under way or done. */
    public boolean taken() {
        return kind != Kind.PENDING;
    }

    public boolean pending() {
        return kind == Kind.PENDING;
    }
}
