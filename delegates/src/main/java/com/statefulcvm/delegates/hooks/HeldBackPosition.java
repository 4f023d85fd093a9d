package com.statefulcvm.delegates.hooks;

import com.statefulcvm.connectors.workload.SequenceEndpoint;
import com.statefulcvm.connectors.workload.WorkloadApiException;
import com.statefulcvm.fleet.WorkloadType;
import com.statefulcvm.fleet.lightsout.LightsOut;

/**
 * How far a held-back member's data goes while its workload does not run: the compose's hold-back agent reads it from
 * the data directory (config/compose/holdback-agent.py: pg_controldata for Patroni, the raft log for etcd), so no
 * member has caught up from another before it is asked.
 */
final class HeldBackPosition {

    private HeldBackPosition() {
    }

    /**
     * The agent's answer when the set holds its workload back and the workload did not answer ({@code notRunning});
     * otherwise {@code notRunning} itself is thrown.
     */
    static SequenceEndpoint.Position read(HookContext context, WorkloadApiException notRunning) {
        LightsOut lightsOut = context.spec().getLightsOut();
        WorkloadType type = context.spec().workload();
        if (!lightsOut.holdsBack(type.isHoldBack()) || !(notRunning.isNoResponse() || notRunning.isRetryable())) {
            throw notRunning;
        }
        int port = lightsOut.sequencePortFor(type.isHoldBack(), context.spec().getHealthCheck().getHttp().getPort());
        return new SequenceEndpoint(context.http("sequence endpoint", port)).readPosition(lightsOut.getSequencePath());
    }

    /** The path the agent answers on, for the answer's words. */
    static String path(HookContext context) {
        return context.spec().getLightsOut().getSequencePath();
    }
}
