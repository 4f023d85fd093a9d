package com.statefulcvm.simulator.cloud;

import static org.awaitility.Awaitility.await;

import java.time.Duration;

/** What the tests of the simulated cloud share. */
final class CloudTests {

    private CloudTests() {
    }

    /** Waits until no CVM is being created: the cloud refuses a create while another is under way ({@link CreationGate}). */
    static void awaitNoCreation(SimulatedCloud cloud) {
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(10)).until(() ->
                cloud.cvms(1, 100, null).items().stream()
                        .noneMatch(cvm -> "creating".equals(cvm.status()) || "pending".equals(cvm.status())));
    }
}
