package com.statefulcvm.delegates.support;

import java.time.Instant;
import java.util.Optional;

/**
 * A step that must not act yet and is not failing: its job is due again at {@link #until()}, keeps its retries and gets
 * no incident; the message is the job's exception message in Cockpit ({@code web}'s PhalaOutagePause turns it into
 * that). Nothing the step did in its transaction is kept, so throw it before the step's first effect. A procedure's
 * deadlines keep running while a step is held: the hold is the step's own wait, not an outage of Phala Cloud.
 */
public class StepHeld extends RuntimeException {

    private final Instant until;
    private final String stage;

    /**
     * @param stage what the procedure's {@code stage} variable shows while it waits (its step's scope); null leaves it
     */
    public StepHeld(String message, Instant until, String stage) {
        super(message);
        this.until = until;
        this.stage = stage;
    }

    public Instant until() {
        return until;
    }

    public Optional<String> stage() {
        return Optional.ofNullable(stage);
    }

    /** The hold in a failure's cause chain, if that is what it is. */
    public static Optional<StepHeld> in(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof StepHeld held) {
                return Optional.of(held);
            }
        }
        return Optional.empty();
    }
}
