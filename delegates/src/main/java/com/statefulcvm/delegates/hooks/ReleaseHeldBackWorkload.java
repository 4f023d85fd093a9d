package com.statefulcvm.delegates.hooks;

import com.statefulcvm.connectors.workload.SequenceEndpoint;
import com.statefulcvm.connectors.workload.WorkloadHttp;
import com.statefulcvm.fleet.WorkloadType;
import com.statefulcvm.fleet.lightsout.LightsOut;
import com.statefulcvm.fleet.lightsout.ReleaseOrder;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.springframework.stereotype.Component;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static com.statefulcvm.delegates.procedure.LightsOutVariables.FOLLOWERS;
import static com.statefulcvm.delegates.procedure.LightsOutVariables.FOLLOWERS_NOT_JOINED;
import static com.statefulcvm.delegates.procedure.LightsOutVariables.SEED;
import static com.statefulcvm.delegates.procedure.LightsOutVariables.SEED_QUORUM_PARTNERS;

/**
 * lights-out-recovery: "Release the workload": a compose that holds its workload back after a lights-out lets it
 * start on {@code POST <lights-out.release-path>} (on the sequence port): the seed first, then each follower once the
 * seed is healthy. A set without a release path does not hold back: nothing to do (Patroni's default is the shipped
 * hold-back agent's: {@link LightsOut#releasePathFor}). Asking again is harmless. The POST says what the member is
 * ({@link ReleaseOrder}): the seed, or a follower with the members already serving that it joins.
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
        ReleaseOrder order = orderOf(context.slot(), execution);
        new SequenceEndpoint(http.withTimeout(max(http.timeout(), RELEASE_TIMEOUT))).release(releasePath, order == null ? null : body(context, order));
        return Answer.ready(context.slot() + "'s workload released (POST " + releasePath + " on port " + port + ")"
                + (order == null ? "" : " as " + order.describe()));
    }

    /** The member's role in the recovery that releases it; null outside one (no seed chosen). */
    @SuppressWarnings("unchecked")
    static ReleaseOrder orderOf(String member, DelegateExecution execution) {
        if (!(execution.getVariable(SEED) instanceof String seed)) {
            return null;
        }
        Object partners = execution.getVariable(SEED_QUORUM_PARTNERS);
        Object followers = execution.getVariable(FOLLOWERS);
        Object notJoined = execution.getVariable(FOLLOWERS_NOT_JOINED);
        return ReleaseOrder.of(member, seed, partners instanceof List<?> p ? (List<String>) p : List.of(),
                followers instanceof List<?> f ? (List<String>) f : List.of(), notJoined instanceof Map<?, ?> n ? (Map<String, ?>) n : Map.of());
    }

    /** {"set", "member", "role", "seed", "primaries"}: what the hold-back agent hands its workload (HOLDBACK_* env). */
    private static Map<String, Object> body(HookContext context, ReleaseOrder order) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("set", context.spec().getName());
        body.put("member", order.member());
        body.put("role", order.role());
        body.put("seed", order.seed());
        body.put("primaries", order.primaries());
        return body;
    }
}
