package com.statefulcvm.delegates.hooks;

import com.statefulcvm.connectors.workload.SequenceEndpoint;
import com.statefulcvm.fleet.lightsout.LightsOut;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.springframework.stereotype.Component;

/**
 * lights-out-recovery: "Release the workload": a compose that holds its workload back after a lights-out lets it
 * start on {@code POST <lights-out.release-path>} (on the sequence port): the seed first, then each follower once the
 * seed is healthy. A set without a release path does not hold back: nothing to do. Asking again is harmless.
 */
@Component("releaseHeldBackWorkload")
public class ReleaseHeldBackWorkload extends HookStep {

    @Override
    protected Answer run(HookContext context, DelegateExecution execution) {
        LightsOut lightsOut = context.spec().getLightsOut();
        if (!lightsOut.holdsBack()) {
            return Answer.ready(context.slot() + ": the set's compose does not hold its workload back (no lights-out.release-path)");
        }
        if (context.cvm().isEmpty()) {
            return Answer.notYet(context.slot() + " has no CVM");
        }
        int port = lightsOut.sequencePortOr(context.spec().getHealthCheck().getHttp().getPort());
        new SequenceEndpoint(context.http("release endpoint", port)).release(lightsOut.getReleasePath());
        return Answer.ready(context.slot() + "'s workload released (POST " + lightsOut.getReleasePath() + " on port " + port + ")");
    }
}
