package com.statefulcvm.delegates.admission;

import com.statefulcvm.connectors.phala.PhalaApiException;
import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.delegates.support.EffectScope;
import com.statefulcvm.delegates.support.PhalaEffects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Optional;

/**
 * The stop that keeps a fenced CVM out, asked until it holds: a CVM that is gone, stopped or being deleted holds; a
 * busy one is left to settle; a settled one that is not stopped is asked to stop ({@link PhalaEffects#stopUntilItHolds}:
 * recorded as an intent first, asked again when the CVM booted since). A stop Phala does not take (busy,
 * no answer, an outage of Phala) is not an error: the fence is recorded already, and the stop is asked again.
 */
final class FencedStop {

    private static final Logger log = LoggerFactory.getLogger(FencedStop.class);

    private FencedStop() {
    }

    /** @return true when the fenced CVM is stopped (or gone) as Phala shows it now */
    static boolean ensureStopped(PhalaEffects effects, EffectScope scope, String slot, Optional<CvmInfo> found) {
        if (found.isEmpty()) {
            return true;
        }
        CvmInfo cvm = found.get();
        if ("stopped".equals(cvm.status()) || "deleting".equals(cvm.status())) {
            return cvm.isSettled() || "deleting".equals(cvm.status());
        }
        if (!cvm.isSettled()) {
            return false;
        }
        try {
            // one intent per step (exactly-once): a stop that took is not asked again, unless the CVM booted since
            effects.stopUntilItHolds(scope, cvm);
        } catch (PhalaApiException e) {
            log.warn("{} is fenced; the stop of its CVM {} was not taken ({}): asked again", slot, cvm.id(), e.getMessage());
        }
        return false;
    }
}
