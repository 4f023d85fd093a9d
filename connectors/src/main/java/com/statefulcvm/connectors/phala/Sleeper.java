package com.statefulcvm.connectors.phala;

import java.time.Duration;

/** Seam for the retry waits, so tests can record them instead of waiting. */
@FunctionalInterface
interface Sleeper {

    Sleeper REAL = duration -> Thread.sleep(duration.toMillis());

    void sleep(Duration duration) throws InterruptedException;
}
