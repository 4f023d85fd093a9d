package com.statefulcvm.simulator.cloud;

import java.util.List;

/** Everything the state file holds. Faults and timings are not part of it. */
record SimulatorState(
        int version,
        List<SimulatedApp> apps,
        List<SimulatedCvm> cvms,
        List<PendingProvision> provisions,
        List<CvmEvent> events,
        long lastEventSeq) {

    static final int CURRENT_VERSION = 1;
}
