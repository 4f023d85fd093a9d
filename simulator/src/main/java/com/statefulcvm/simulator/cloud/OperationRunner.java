package com.statefulcvm.simulator.cloud;

import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.statefulcvm.simulator.SimulatorProperties;

import static com.statefulcvm.simulator.cloud.CvmLifecycle.DELETED;
import static com.statefulcvm.simulator.cloud.CvmLifecycle.RUNNING;
import static com.statefulcvm.simulator.cloud.CvmLifecycle.STARTING;
import static com.statefulcvm.simulator.cloud.CvmLifecycle.STOPPED;

/**
 * Carries operations through the statuses {@link CvmLifecycle} plans for them: the first at once, the others on the
 * scheduler, each transition recorded in the journal. Called under {@link SimulatedCloud}'s lock; a scheduled hop
 * takes that same lock, so hops never interleave with API calls.
 */
final class OperationRunner implements AutoCloseable {

    // the cloud's logger, so the simulator's log reads as before the split
    private static final Logger log = LoggerFactory.getLogger(SimulatedCloud.class);

    private final Object lock;
    private final Supplier<SimulatorProperties.Timings> timings;
    private final Clock clock;
    private final CvmDirectory directory;
    private final EventJournal journal;
    private final AppLeadership leadership;
    private final Runnable persist;
    private final CvmTransitionListener listener;
    private final ScheduledExecutorService scheduler;

    /** @param lock {@link SimulatedCloud} itself: the one lock every change to the state is made under */
    OperationRunner(Object lock, Supplier<SimulatorProperties.Timings> timings, Clock clock, CvmDirectory directory,
            EventJournal journal, AppLeadership leadership, Runnable persist, CvmTransitionListener listener) {
        this.lock = lock;
        this.timings = timings;
        this.clock = clock;
        this.directory = directory;
        this.journal = journal;
        this.leadership = leadership;
        this.persist = persist;
        this.listener = listener;
        this.scheduler = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "simulated-cloud");
            thread.setDaemon(true);
            return thread;
        });
    }

    /** @param createStatus for CREATE only: {@link CvmLifecycle#CREATING} or {@link CvmLifecycle#PENDING} */
    Operation begin(SimulatedCvm cvm, OperationType type, String createStatus, String correlationId) {
        CvmLifecycle.Plan plan = CvmLifecycle.plan(type, timings.get(), createStatus);
        Operation operation = new Operation(type, correlationId, now(), plan.hops());
        cvm.operation = operation;
        transition(cvm, plan.initialStatus());
        schedule(cvm, operation);
        return operation;
    }

    /** The CVM stops at once (no shutdown), cancelling whatever it was doing. */
    void crash(SimulatedCvm cvm) {
        if (CvmLifecycle.DELETING.equals(cvm.status)) {
            throw ApiException.detail(409, "CVM is being deleted");
        }
        cvm.operation = null;
        if (!STOPPED.equals(cvm.status)) {
            transition(cvm, STOPPED, true);
        }
    }

    /**
     * Runs every operation in flight to its end without waiting: the hops scheduled before a restart are lost.
     * Answers how many there were.
     */
    int completeInFlight() {
        int completed = 0;
        for (SimulatedCvm cvm : List.copyOf(directory.cvms())) {
            if (cvm.operation != null) {
                completed++;
            }
            while (cvm.operation != null) {
                step(cvm);
            }
        }
        return completed;
    }

    @Override
    public void close() {
        scheduler.shutdownNow();
        // a hop already running finishes (and saves the state file) before close returns, never after it
        try {
            scheduler.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void schedule(SimulatedCvm cvm, Operation operation) {
        if (!operation.hasNextHop()) {
            return;
        }
        String vmUuid = cvm.vmUuid;
        String correlationId = operation.correlationId;
        int hop = operation.nextHop;
        try {
            scheduler.schedule(() -> advance(vmUuid, correlationId, hop), operation.nextHop().delayMs(),
                    TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException closed) {
            log.debug("simulated cloud closed; {} stays {}", cvm.name, cvm.status);
        }
    }

    /** A scheduled hop: applies it if the operation is still the one that scheduled it. */
    private void advance(String vmUuid, String correlationId, int hop) {
        synchronized (lock) {
            try {
                SimulatedCvm cvm = directory.cvm(vmUuid);
                if (cvm == null || cvm.operation == null || !cvm.operation.correlationId.equals(correlationId)
                        || cvm.operation.nextHop != hop) {
                    return;
                }
                step(cvm);
                if (cvm.operation != null) {
                    schedule(cvm, cvm.operation);
                }
                persist.run();
            } catch (RuntimeException e) {
                log.error("simulated transition of {} failed", vmUuid, e);
            }
        }
    }

    /** Enters the operation's next status; the operation ends (the CVM settles) with its last hop. */
    private void step(SimulatedCvm cvm) {
        Operation operation = cvm.operation;
        Operation.Hop hop = operation.nextHop();
        operation.nextHop++;
        if (!operation.hasNextHop()) {
            cvm.operation = null;
        }
        transition(cvm, hop.status());
    }

    private void transition(SimulatedCvm cvm, String to) {
        transition(cvm, to, false);
    }

    /** @param crash an admin crash: listeners kill the workload instead of stopping it */
    private void transition(SimulatedCvm cvm, String to, boolean crash) {
        Instant now = now();
        leadership.beforeTransition(cvm, to);
        journal.record(now, cvm.name, cvm.vmUuid, cvm.status, to);
        log.debug("CVM {}: {} -> {}", cvm.name, cvm.status, to);
        try {
            listener.onTransition(new CvmTransition(cvm.name, cvm.vmUuid, cvm.status, to, crash));
        } catch (RuntimeException e) {
            log.error("a transition listener failed on {}: {} -> {}", cvm.name, cvm.status, to, e);
        }
        cvm.updatedAt = now;
        if (DELETED.equals(to)) {
            directory.remove(cvm);
            return;
        }
        cvm.status = to;
        switch (to) {
            case STARTING -> assignInstanceIdAtFirstBoot(cvm);
            case RUNNING -> {
                assignInstanceIdAtFirstBoot(cvm);
                cvm.bootedAt = now;
                cvm.exitedAt = null;
            }
            case STOPPED -> {
                cvm.bootedAt = null;
                cvm.exitedAt = now;
            }
            default -> {
                // transitional statuses change nothing else
            }
        }
        leadership.afterTransition(cvm);
    }

    private static void assignInstanceIdAtFirstBoot(SimulatedCvm cvm) {
        if (cvm.instanceId == null) {
            cvm.instanceId = Ids.hex(20);
        }
    }

    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MILLIS);
    }
}
