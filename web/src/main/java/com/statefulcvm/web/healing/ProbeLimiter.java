package com.statefulcvm.web.healing;

import com.statefulcvm.connectors.health.ProbeResult;
import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.delegates.support.InstanceHealth;
import com.statefulcvm.fleet.ReplicaSetSpec;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * The health probes of every monitor round on this node, at most {@code maxInFlight} at once; the rest wait in line.
 * A probe holds no thread while it waits for its answer (the JDK client's asynchronous send), so thousands of
 * instances per interval cost what the probes cost, not a thread each.
 */
class ProbeLimiter {

    private final InstanceHealth health;
    private final int maxInFlight;
    private final Executor callbacks;
    private final Queue<Pending> waiting = new ArrayDeque<>();
    private int inFlight;

    /** @param callbacks where a finished probe lets the next one go (never the thread that completed it) */
    ProbeLimiter(InstanceHealth health, int maxInFlight, Executor callbacks) {
        this.health = health;
        this.maxInFlight = maxInFlight;
        this.callbacks = callbacks;
    }

    private record Pending(ReplicaSetSpec spec, CvmInfo cvm, CompletableFuture<ProbeResult> result) {
    }

    /** Completes with the probe's result; never exceptionally. */
    CompletableFuture<ProbeResult> probe(ReplicaSetSpec spec, CvmInfo cvm) {
        CompletableFuture<ProbeResult> result = new CompletableFuture<>();
        synchronized (this) {
            waiting.add(new Pending(spec, cvm, result));
        }
        drain();
        return result;
    }

    synchronized int inFlight() {
        return inFlight;
    }

    private void drain() {
        while (true) {
            Pending next;
            synchronized (this) {
                if (inFlight >= maxInFlight || waiting.isEmpty()) {
                    return;
                }
                inFlight++;
                next = waiting.poll();
            }
            CompletableFuture<ProbeResult> probe;
            try {
                probe = health.probeAsync(next.spec(), next.cvm());
            } catch (RuntimeException e) {
                probe = CompletableFuture.failedFuture(e);
            }
            probe.whenCompleteAsync((result, failure) -> {
                synchronized (this) {
                    inFlight--;
                }
                next.result().complete(failure == null ? result
                        : new ProbeResult(false, ProbeResult.NO_ANSWER, "probe failed: " + failure.getMessage(), Duration.ZERO));
                drain();
            }, callbacks);
        }
    }
}
