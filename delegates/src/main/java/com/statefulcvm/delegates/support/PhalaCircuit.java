package com.statefulcvm.delegates.support;

import com.statefulcvm.connectors.phala.PhalaApiException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The procedure-level circuit breaker of this node's Phala client. Closed, every call goes through (and the client
 * retries transient answers a few times on its own). When a call still fails the way an outage does
 * ({@link PhalaOutage}: no answer, 429, 5xx), the circuit opens: calls fail at once with {@link PhalaUnreachable},
 * without reaching Phala, until the next probe is due; then one call goes through (half-open). The wait between
 * probes doubles from {@code firstWait} up to {@code maxWait}. Any answer that shows Phala is there (a success, a 4xx)
 * closes it again and tells the listeners, which wake the procedures that paused ({@code web}'s
 * PhalaOutagePause). Thread-safe; one per node.
 */
public class PhalaCircuit {

    private static final Logger log = LoggerFactory.getLogger(PhalaCircuit.class);

    /** What an open circuit looks like, for the fleet page, the API and the procedures' waiting variable. */
    public record Open(Instant since, Instant nextProbeAt, int failures, String lastFailure) {
        public String describe() {
            return "Phala Cloud unreachable since " + since + " (" + failures + " failed call" + (failures == 1 ? "" : "s")
                    + ", next try at " + nextProbeAt + "): " + lastFailure;
        }
    }

    private final Clock clock;
    private final Duration firstWait;
    private final Duration maxWait;
    private final List<Runnable> onClose = new CopyOnWriteArrayList<>();
    private Open open;
    private Instant lastClosedAt;
    private Duration lastOutage = Duration.ZERO;
    private Instant probeTakenAt;

    public PhalaCircuit(Clock clock, Duration firstWait, Duration maxWait) {
        this.clock = clock;
        this.firstWait = firstWait;
        this.maxWait = maxWait;
    }

    /** Called before a call: throws when the circuit is open and no probe is due (or another call is the probe). */
    public synchronized void beforeCall(String operation) {
        if (open == null) {
            return;
        }
        Instant now = clock.instant();
        boolean probeDue = !now.isBefore(open.nextProbeAt());
        boolean probeInFlight = probeTakenAt != null && probeTakenAt.plus(maxWait).isAfter(now);
        if (probeDue && !probeInFlight) {
            probeTakenAt = now;
            return;
        }
        throw new PhalaUnreachable(operation, open.describe());
    }

    /** Phala answered (success, or a refusal that shows it is there). */
    public void answered() {
        Open was;
        synchronized (this) {
            probeTakenAt = null;
            was = open;
            if (was == null) {
                return;
            }
            open = null;
            lastClosedAt = clock.instant();
            lastOutage = Duration.between(was.since(), lastClosedAt);
        }
        log.warn("Phala Cloud answers again after {} s unreachable: procedures resume",
                Duration.between(was.since(), lastClosedAt).toSeconds());
        onClose.forEach(listener -> {
            try {
                listener.run();
            } catch (RuntimeException e) {
                log.warn("A listener of Phala Cloud's return failed: {}", e.toString());
            }
        });
    }

    /**
     * A call failed; an outage opens the circuit (or keeps it open, waiting longer), anything else closes it. A call
     * the client may not repeat (it changes something and may have acted: {@link PhalaApiException#isOutcomeUnknown()})
     * failed on one answer, not after the client's retries: no sign of an outage by itself, it leaves the circuit as
     * it is. Its step reads back what exists before it asks again, and those reads, retried, tell an outage.
     */
    public void failed(PhalaApiException e) {
        if (e.isOutcomeUnknown()) {
            return;
        }
        if (!PhalaOutage.isOutage(e) || e instanceof PhalaUnreachable) {
            if (!(e instanceof PhalaUnreachable)) {
                answered();
            }
            return;
        }
        synchronized (this) {
            Instant now = clock.instant();
            probeTakenAt = null;
            if (open == null) {
                open = new Open(now, now.plus(firstWait), 1, e.getMessage());
                log.warn("Phala Cloud unreachable: {}; procedures pause until it answers (next try in {} s)", e.getMessage(),
                        firstWait.toSeconds());
            } else {
                Duration wait = firstWait.multipliedBy(1L << Math.min(open.failures(), 20));
                wait = wait.compareTo(maxWait) > 0 ? maxWait : wait;
                open = new Open(open.since(), now.plus(wait), open.failures() + 1, e.getMessage());
            }
        }
    }

    public synchronized Optional<Open> open() {
        return Optional.ofNullable(open);
    }

    /**
     * Until when a deadline that comes due now is held after Phala's return: the outage took that time from the
     * procedure it guards, so for as long after the return as the outage lasted. Empty while the circuit is open (a
     * deadline is paused then, like a step) and once that time has passed.
     */
    public synchronized Optional<Instant> deadlinesHeldUntil() {
        if (open != null || lastClosedAt == null) {
            return Optional.empty();
        }
        Instant until = lastClosedAt.plus(lastOutage);
        return until.isAfter(clock.instant()) ? Optional.of(until) : Optional.empty();
    }

    /** When the next call may try Phala again; now when the circuit is closed. */
    public synchronized Instant nextProbeAt() {
        return open == null ? clock.instant() : open.nextProbeAt();
    }

    /**
     * True when Phala Cloud was unreachable at some moment of the last {@code window} (it is now, or it answered again
     * within the window): a deadline that passed in that window measured the outage, not the instance.
     */
    public synchronized boolean unreachableWithin(Duration window) {
        return open != null || lastClosedAt != null && lastClosedAt.isAfter(clock.instant().minus(window));
    }

    /** As {@link #unreachableWithin(Duration)}, for BPMN expressions: an ISO-8601 duration such as the progress deadline. */
    public boolean unreachableWithin(String isoDuration) {
        return unreachableWithin(Duration.parse(isoDuration));
    }

    /** Run when Phala answers again after an outage. */
    public void onClose(Runnable listener) {
        onClose.add(listener);
    }
}
