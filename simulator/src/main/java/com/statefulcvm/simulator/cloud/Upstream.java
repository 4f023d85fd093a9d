package com.statefulcvm.simulator.cloud;

/** What the simulated gateway finds behind an {@code <id>-<port>} route. */
public enum Upstream {
    /** Running, settled, healthy: 200. */
    HEALTHY,
    /** Running and settled, but the workload is marked unhealthy: 503. */
    UNHEALTHY,
    /** Stopped, crashed, booting, updating or unknown: the gateway has no backend (502). */
    NONE
}
