package com.statefulcvm.connectors.phala;

import java.time.Clock;

/** Builds {@link PhalaCloudClient}s; the only entry point other modules need. */
public final class PhalaCloudClients {

    private PhalaCloudClients() {
    }

    public static PhalaCloudClient create(PhalaCloudSettings settings) {
        return create(settings, PhalaCallObserver.NONE);
    }

    /** A client that reports each HTTP attempt and each retry to {@code observer} (the application's metrics). */
    public static PhalaCloudClient create(PhalaCloudSettings settings, PhalaCallObserver observer) {
        return FeignPhalaCloudClient.create(settings, Sleeper.REAL, Clock.systemUTC(), observer);
    }

    /** Seam for tests that want to see the retry waits instead of waiting them. */
    static PhalaCloudClient create(PhalaCloudSettings settings, Sleeper sleeper, Clock clock) {
        return create(settings, sleeper, clock, PhalaCallObserver.NONE);
    }

    /** Seam for tests that watch what a client reports. */
    static PhalaCloudClient create(PhalaCloudSettings settings, Sleeper sleeper, Clock clock, PhalaCallObserver observer) {
        return FeignPhalaCloudClient.create(settings, sleeper, clock, observer);
    }
}
