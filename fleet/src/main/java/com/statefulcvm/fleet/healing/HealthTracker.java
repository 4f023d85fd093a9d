package com.statefulcvm.fleet.healing;

import com.statefulcvm.fleet.AutoHealing;
import com.statefulcvm.fleet.HealthCheck;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * The health monitor's judgement of one slot in one round, pure: what it saw (the slot's CVM as listed, and the probe
 * if one was made) and what it remembered give the new counters and a verdict.
 *
 * <ul>
 *   <li>No CVM in the slot, or a settled CVM that is not running (stopped, crashed, failed): a failure.</li>
 *   <li>A CVM with an operation under way (starting, restarting, updating, deleting): not counted; the next time it
 *   runs counts as a (re)start.</li>
 *   <li>A running CVM: the probe counts, except that a failure within {@code initialDelaySeconds} of the CVM's
 *   (re)start does not. A (re)start is the first round that sees it running after any other status, a new
 *   instance_id in the slot, or the first round that sees the slot at all.</li>
 *   <li>{@code unhealthyThreshold} failures in a row make the verdict unhealthy; {@code healthyThreshold} successes in
 *   a row make it healthy again.</li>
 *   <li>An instance that a rollout or a heal is working on is held: its status is followed, its failures are not
 *   counted, and it is never reported unhealthy.</li>
 * </ul>
 */
public final class HealthTracker {

    private final int healthyThreshold;
    private final int unhealthyThreshold;
    private final Duration initialDelay;

    public HealthTracker(int healthyThreshold, int unhealthyThreshold, Duration initialDelay) {
        this.healthyThreshold = Math.max(1, healthyThreshold);
        this.unhealthyThreshold = Math.max(1, unhealthyThreshold);
        this.initialDelay = initialDelay;
    }

    public static HealthTracker of(HealthCheck check, AutoHealing healing) {
        return new HealthTracker(check.getHealthyThreshold(), check.getUnhealthyThreshold(),
                Duration.ofSeconds(healing.getInitialDelaySeconds()));
    }

    /** What one round saw of a slot. {@code probeHealthy} is null when no probe was made (the CVM was not running). */
    public record Observation(String instanceId, String status, boolean settled, Boolean probeHealthy, String detail) {

        public static Observation missing() {
            return new Observation(null, SlotHealth.MISSING, true, null, "no CVM in the slot");
        }

        boolean running() {
            return "running".equals(status) && settled;
        }
    }

    public enum Verdict {
        /** The last counted probe passed (or the verdict is healthy). */
        HEALTHY,
        /** Failing, but fewer than unhealthyThreshold times in a row so far. */
        FAILING,
        /** unhealthyThreshold failures in a row: a heal is due. */
        UNHEALTHY,
        /** Unhealthy before, its last check passed: healthy again after healthyThreshold good checks; not healed. */
        RECOVERING,
        /** A failure inside the initial delay after a (re)start: not counted. */
        STARTING,
        /** An operation is under way on the CVM: not counted. */
        BUSY,
        /** A rollout or a heal is working on the instance: not counted. */
        HELD;

        /** Whether the slot serves, as the disruption budget counts it: its last checks passed. */
        public boolean serving() {
            return this == HEALTHY || this == RECOVERING;
        }
    }

    public record Judgement(SlotHealth health, Verdict verdict, String reason) {
    }

    public Judgement judge(SlotHealth previous, Observation seen, Instant now, String heldBy) {
        boolean newInstance = seen.instanceId() != null && !Objects.equals(seen.instanceId(), previous.instanceId());
        boolean firstSight = previous.lastStatus() == null;
        boolean wasRunning = "running".equals(previous.lastStatus());
        Instant startedAt = previous.startedAt();
        if (!seen.running()) {
            // A CVM that is not running has not (re)started yet; its next "running" is a start.
            startedAt = null;
        } else if (firstSight || newInstance || !wasRunning || startedAt == null) {
            startedAt = now;
        }
        String instanceId = seen.instanceId() != null ? seen.instanceId() : previous.instanceId();
        int failures = newInstance ? 0 : previous.consecutiveFailures();
        int successes = newInstance ? 0 : previous.consecutiveSuccesses();
        Boolean healthy = newInstance ? null : previous.healthy();
        Instant changeAt = previous.lastChangeAt();

        if (heldBy != null) {
            SlotHealth held = previous.observed(instanceId, seen.status(), healthy, 0, successes, now, "held: " + heldBy, changeAt, startedAt);
            return new Judgement(held, Verdict.HELD, "held: " + heldBy);
        }
        if (!seen.settled()) {
            String why = "busy: " + seen.status() + " (operation in progress)";
            return new Judgement(previous.observed(instanceId, seen.status(), healthy, failures, successes, now, why, changeAt, startedAt),
                    Verdict.BUSY, why);
        }
        boolean failed;
        String detail;
        if (seen.running()) {
            failed = !Boolean.TRUE.equals(seen.probeHealthy());
            detail = seen.detail();
        } else {
            failed = true;
            detail = SlotHealth.MISSING.equals(seen.status()) ? "no CVM in the slot" : "CVM status " + seen.status();
        }
        if (failed && seen.running() && startedAt != null && now.isBefore(startedAt.plus(initialDelay))) {
            String why = "starting: failure not counted within the initial delay of " + initialDelay.toSeconds()
                    + " s after the (re)start at " + startedAt + " (" + detail + ")";
            return new Judgement(previous.observed(instanceId, seen.status(), healthy, failures, 0, now, why, changeAt, startedAt),
                    Verdict.STARTING, why);
        }
        if (failed) {
            if (failures == 0) {
                changeAt = now;
            }
            failures++;
            successes = 0;
            if (failures >= unhealthyThreshold) {
                healthy = false;
            }
        } else {
            if (successes == 0) {
                changeAt = now;
            }
            successes++;
            failures = 0;
            if (successes >= healthyThreshold) {
                healthy = true;
            }
        }
        SlotHealth next = previous.observed(instanceId, seen.status(), healthy, failures, successes, now, detail, changeAt, startedAt);
        if (failed && failures >= unhealthyThreshold) {
            return new Judgement(next, Verdict.UNHEALTHY, failures + " consecutive failed health checks (unhealthy threshold "
                    + unhealthyThreshold + "); last: " + detail);
        }
        if (!failed && Boolean.FALSE.equals(healthy)) {
            return new Judgement(next, Verdict.RECOVERING, "recovering: " + successes + " of " + healthyThreshold
                    + " good health checks in a row; " + detail);
        }
        if (failed) {
            return new Judgement(next, Verdict.FAILING, failures + " of " + unhealthyThreshold + " failed health checks in a row; last: " + detail);
        }
        return new Judgement(next, Verdict.HEALTHY, detail);
    }
}
