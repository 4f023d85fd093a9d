package com.statefulcvm.simulator.cloud;

import java.util.List;

/**
 * Everything the state file holds. Faults and timings are not part of it. {@code lastCvmSeq} (the last integer CVM id
 * given out) is 0 in files written before it existed; integer ids are then given out again on load.
 */
record SimulatorState(
        int version,
        List<SimulatedApp> apps,
        List<SimulatedCvm> cvms,
        List<PendingProvision> provisions,
        List<CvmEvent> events,
        long lastEventSeq,
        long lastCvmSeq) {

    static final int CURRENT_VERSION = 1;
}
