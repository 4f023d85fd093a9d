package com.statefulcvm.simulator.cloud;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static com.statefulcvm.simulator.cloud.CvmLifecycle.RUNNING;

/** What the gateway finds behind a host name. Used only under {@link SimulatedCloud}'s lock. */
final class GatewayRoutes {

    private static final Pattern GATEWAY_TARGET = Pattern.compile("^([0-9a-fA-F]{40})-(\\d{1,5})[sg]?$");

    private final CvmDirectory directory;

    GatewayRoutes(CvmDirectory directory) {
        this.directory = directory;
    }

    /**
     * {@code <instance_id|app_id>-<port>[s|g]}: an instance answers for itself; an app for the best of its CVMs,
     * as the gateway balances over them.
     */
    Upstream upstream(String target) {
        Matcher m = GATEWAY_TARGET.matcher(target == null ? "" : target);
        if (!m.matches()) {
            return Upstream.NONE;
        }
        String id = m.group(1).toLowerCase();
        for (SimulatedCvm cvm : directory.cvms()) {
            if (id.equals(cvm.instanceId)) {
                return upstream(cvm);
            }
        }
        SimulatedApp app = directory.app(id);
        if (app == null) {
            return Upstream.NONE;
        }
        Upstream best = Upstream.NONE;
        for (SimulatedCvm cvm : directory.cvmsOf(app)) {
            Upstream upstream = upstream(cvm);
            if (upstream.ordinal() < best.ordinal()) {
                best = upstream;
            }
        }
        return best;
    }

    private static Upstream upstream(SimulatedCvm cvm) {
        if (!RUNNING.equals(cvm.status) || !cvm.settled()) {
            return Upstream.NONE;
        }
        return cvm.healthy ? Upstream.HEALTHY : Upstream.UNHEALTHY;
    }
}
