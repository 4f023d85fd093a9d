package com.statefulcvm.connectors.health;

import java.net.URI;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/** Asks one URL whether the workload behind it is healthy. Implementations never throw for network failures. */
public interface HealthProbe {

    ProbeResult probe(URI url, int expectStatus, Duration timeout);

    /**
     * The same probe without holding a thread while it waits for the answer (the health monitor probes thousands of
     * instances per interval). The future never completes exceptionally. This default blocks the calling thread.
     */
    default CompletableFuture<ProbeResult> probeAsync(URI url, int expectStatus, Duration timeout) {
        return CompletableFuture.completedFuture(probe(url, expectStatus, timeout));
    }
}
