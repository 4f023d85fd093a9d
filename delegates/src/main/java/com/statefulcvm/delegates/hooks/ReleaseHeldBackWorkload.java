package com.statefulcvm.delegates.hooks;

import com.statefulcvm.connectors.workload.SequenceEndpoint;
import com.statefulcvm.connectors.workload.WorkloadHttp;
import com.statefulcvm.fleet.WorkloadType;
import com.statefulcvm.fleet.lightsout.LightsOut;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.springframework.stereotype.Component;

import java.time.Duration;

/**
 * lights-out-recovery: "Release the workload": a compose that holds its workload back after a lights-out lets it
 * start on {@code POST <lights-out.release-path>} (on the sequence port): the seed first, then each follower once the
 * seed is healthy. A set without a release path does not hold back: nothing to do (Patroni's default is the shipped
 * hold-back agent's: {@link LightsOut#releasePathFor}). Asking again is harmless.
 */
@Component("releaseHeldBackWorkload")
public class ReleaseHeldBackWorkload extends HookStep {

    static final Duration RELEASE_TIMEOUT = Duration.ofSeconds(10);

    private static Duration max(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }

    @Override
    protected Answer run(HookContext context, DelegateExecution execution) {
        LightsOut lightsOut = context.spec().getLightsOut();
        WorkloadType type = context.spec().workload();
        String releasePath = lightsOut.releasePathFor(type.isHoldBack());
        if (releasePath == null) {
            return Answer.ready(context.slot() + ": the set's compose does not hold its workload back (lights-out.release-path)");
        }
        if (context.cvm().isEmpty()) {
            return Answer.notYet(context.slot() + " has no CVM");
        }
        int port = lightsOut.sequencePortFor(type.isHoldBack(), context.spec().getHealthCheck().getHttp().getPort());
        // starting a workload may take longer than a health probe: the compose answers once it has begun
        WorkloadHttp http = context.http("release endpoint", port);
        new SequenceEndpoint(http.withTimeout(max(http.timeout(), RELEASE_TIMEOUT))).release(releasePath);
        return Answer.ready(context.slot() + "'s workload released (POST " + releasePath + " on port " + port + ")");
    }
}
