package com.statefulcvm.simulator.cloud;

import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static com.statefulcvm.simulator.cloud.CvmLifecycle.RUNNING;

/** What the gateway finds behind a host name. Used only under {@link SimulatedCloud}'s lock. */
final class GatewayRoutes {

    private static final Pattern GATEWAY_TARGET = Pattern.compile("^([0-9a-fA-F]{40})-(\\d{1,5})[sg]?$");

    private final CvmDirectory directory;
    private final AppLeadership leadership;

    GatewayRoutes(CvmDirectory directory, AppLeadership leadership) {
        this.directory = directory;
        this.leadership = leadership;
    }

    /**
     * {@code <instance_id|app_id>-<port>[s|g]}: an instance answers for itself; an app for the best of its CVMs,
     * as the gateway balances over them.
     */
    Upstream upstream(String target) {
        Route route = route(target);
        if (route.cvm() != null) {
            return upstreamOf(route.cvm());
        }
        if (route.app() == null) {
            return Upstream.NONE;
        }
        Upstream best = Upstream.NONE;
        for (SimulatedCvm cvm : directory.cvmsOf(route.app())) {
            Upstream upstream = upstreamOf(cvm);
            if (upstream.ordinal() < best.ordinal()) {
                best = upstream;
            }
        }
        return best;
    }

    /**
     * The role probe on the same routes: an instance answers whether it leads its app (a running one, healthy or
     * not); an app answers for its best CVM, which is its leader whenever one of its CVMs runs.
     */
    RoleAnswer role(String target) {
        Route route = route(target);
        if (route.cvm() != null) {
            if (upstreamOf(route.cvm()) == Upstream.NONE) {
                return RoleAnswer.NONE;
            }
            return leadership.leads(route.cvm()) ? RoleAnswer.LEADER : RoleAnswer.REPLICA;
        }
        if (route.app() == null) {
            return RoleAnswer.NONE;
        }
        return leadership.leaderOf(route.app()) == null ? RoleAnswer.NONE : RoleAnswer.LEADER;
    }

    /**
     * The app's workload as the route reaches it ({@link AppLeadership#view}): an instance route asks its CVM, an app
     * route its leader, else its first CVM that runs settled; empty when the route names no CVM and no app.
     */
    Optional<WorkloadView> workload(String target) {
        Route route = route(target);
        SimulatedApp app = route.cvm() != null ? directory.app(route.cvm().appId) : route.app();
        if (app == null) {
            return Optional.empty();
        }
        return Optional.of(leadership.view(app, asked(route, app)));
    }

    /** The app the route reaches (an instance route: its CVM's app); null for none. */
    SimulatedApp app(String target) {
        Route route = route(target);
        return route.cvm() != null ? directory.app(route.cvm().appId) : route.app();
    }

    /** The CVM a workload call on the route reaches (see {@link #workload}); null when none runs. */
    SimulatedCvm asked(String target) {
        Route route = route(target);
        SimulatedApp app = route.cvm() != null ? directory.app(route.cvm().appId) : route.app();
        return app == null ? null : asked(route, app);
    }

    private SimulatedCvm asked(Route route, SimulatedApp app) {
        if (route.cvm() != null) {
            return route.cvm();
        }
        SimulatedCvm leader = leadership.leaderOf(app);
        return leader != null ? leader : directory.cvmsOf(app).stream()
                .filter(cvm -> upstreamOf(cvm) != Upstream.NONE).findFirst().orElse(null);
    }

    /** The port and the CVM(s) behind the route, each with whether it runs settled; empty for no CVM and no app. */
    Optional<GatewayTarget> target(String target) {
        Route route = route(target);
        List<SimulatedCvm> cvms = route.cvm() != null ? List.of(route.cvm())
                : route.app() != null ? directory.cvmsOf(route.app()) : List.of();
        if (cvms.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new GatewayTarget(route.port(), route.cvm() == null, cvms.stream()
                .map(cvm -> new GatewayTarget.RoutedCvm(cvm.name, RUNNING.equals(cvm.status) && cvm.settled()))
                .toList()));
    }

    /** One CVM by its instance_id, else an app by its app_id, else neither. */
    private Route route(String target) {
        Matcher m = GATEWAY_TARGET.matcher(target == null ? "" : target);
        if (!m.matches()) {
            return new Route(null, null, 0);
        }
        int port = Integer.parseInt(m.group(2));
        String id = m.group(1).toLowerCase();
        for (SimulatedCvm cvm : directory.cvms()) {
            if (id.equals(cvm.instanceId)) {
                return new Route(cvm, null, port);
            }
        }
        return new Route(null, directory.app(id), port);
    }

    /**
     * A compose that carries this text (e.g. as a label) runs a workload that never gets healthy: a bad revision for
     * tests of progress deadlines and rollback, which must fail on the new compose and recover on the old one.
     */
    public static final String UNHEALTHY_MARKER = "simulator.workload.health=unhealthy";

    /** What the gateway finds on one CVM: its workload's health while it runs settled, else nothing. */
    static Upstream upstreamOf(SimulatedCvm cvm) {
        if (!RUNNING.equals(cvm.status) || !cvm.settled()) {
            return Upstream.NONE;
        }
        return cvm.healthy && !runsUnhealthyRevision(cvm) ? Upstream.HEALTHY : Upstream.UNHEALTHY;
    }

    private static boolean runsUnhealthyRevision(SimulatedCvm cvm) {
        Object yaml = cvm.composeFile == null ? null : cvm.composeFile.get("docker_compose_file");
        return yaml != null && yaml.toString().contains(UNHEALTHY_MARKER);
    }

    private record Route(SimulatedCvm cvm, SimulatedApp app, int port) {
    }
}
