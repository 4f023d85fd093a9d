package com.statefulcvm.connectors.health;

import java.net.URI;
import java.time.Duration;

/** Asks one URL whether the workload behind it is healthy. Implementations never throw for network failures. */
public interface HealthProbe {

    ProbeResult probe(URI url, int expectStatus, Duration timeout);
}
