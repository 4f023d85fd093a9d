package com.statefulcvm.delegates;

import com.statefulcvm.connectors.health.HttpHealthProbe;
import com.statefulcvm.connectors.health.InstanceUrlTemplate;
import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.connectors.phala.model.Gateway;
import com.statefulcvm.delegates.support.InstanceRoles;
import com.statefulcvm.fleet.InstanceRole;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The role probe against a real HTTP server standing in for the gateway: {@code /gw/{instanceId}-{port}{path}}
 * answers as the instance's workload would (Patroni's {@code GET /leader}: 200 on the leader, 503 elsewhere).
 */
class InstanceRolesTest {

    private static final String LEADER = "1".repeat(40);
    private static final String REPLICA = "2".repeat(40);
    private static final String NOT_FOUND = "3".repeat(40);
    private static final String HANGS = "4".repeat(40);

    /** instanceId → the status its workload answers; {@link #HANGS} never answers in time. */
    private final Map<String, Integer> statusOf = new ConcurrentHashMap<>(Map.of(LEADER, 200, REPLICA, 503, NOT_FOUND, 404));
    /** "METHOD path" of every request the server saw. */
    private final List<String> requests = new CopyOnWriteArrayList<>();
    private HttpServer server;
    private ExecutorService executor;
    private InstanceRoles roles;

    @BeforeEach
    void startGateway() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        executor = Executors.newCachedThreadPool();
        server.setExecutor(executor);
        server.createContext("/gw/", this::answer);
        server.start();
        roles = rolesVia("http://127.0.0.1:" + server.getAddress().getPort() + "/gw/{instanceId}-{port}{path}");
    }

    @AfterEach
    void stopGateway() {
        server.stop(0);
        executor.shutdownNow();
    }

    private void answer(HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getPath();
            requests.add(exchange.getRequestMethod() + " " + path);
            String instanceId = path.substring("/gw/".length(), "/gw/".length() + 40);
            if (HANGS.equals(instanceId)) {
                try {
                    Thread.sleep(30_000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            int status = statusOf.getOrDefault(instanceId, 200);
            byte[] body = ("{\"role\":\"" + (status == 200 ? "leader" : "replica") + "\"}").getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(status, body.length);
            exchange.getResponseBody().write(body);
        }
    }

    private static InstanceRoles rolesVia(String template) {
        return new InstanceRoles(new HttpHealthProbe(), new InstanceUrlTemplate(template));
    }

    /** A probe timeout far above any answer's time on a loaded machine: only the hanging server may run into it. */
    private static ReplicaSetSpec set(String workloadType) {
        return set(workloadType, 10);
    }

    private static ReplicaSetSpec set(String workloadType, int timeoutSeconds) {
        ReplicaSetSpec spec = new ReplicaSetSpec();
        spec.setName("db");
        spec.setWorkloadType(workloadType);
        spec.getHealthCheck().setTimeoutSeconds(timeoutSeconds);
        return spec;
    }

    private static CvmInfo cvm(String instanceId) {
        return new CvmInfo("cvm_" + instanceId, "db-0", "a".repeat(40), "uuid", instanceId, "running", false, null,
                null, null, null, null, null, new Gateway("sim.phala.local", null), null, null, null, null, null, null, null);
    }

    @Test
    void patroniDefaultAsksGetLeaderOnPort8008() {
        ReplicaSetSpec patroni = set("patroni");

        assertThat(roles.roleOf(patroni, cvm(LEADER))).isEqualTo(InstanceRole.LEADER);
        assertThat(roles.roleOf(patroni, cvm(REPLICA))).isEqualTo(InstanceRole.REPLICA);

        assertThat(requests).containsExactly("GET /gw/" + LEADER + "-8008/leader", "GET /gw/" + REPLICA + "-8008/leader");
    }

    @Test
    void anyOtherStatusIsAReplica() {
        assertThat(roles.roleOf(set("patroni"), cvm(NOT_FOUND))).isEqualTo(InstanceRole.REPLICA);
    }

    @Test
    void theSetsOwnProbeWinsOverTheDefault() {
        ReplicaSetSpec patroni = set("patroni");
        patroni.getRoleProbe().setPort(9000);
        patroni.getRoleProbe().setPath("/primary");

        assertThat(roles.roleOf(patroni, cvm(LEADER))).isEqualTo(InstanceRole.LEADER);

        assertThat(requests).containsExactly("GET /gw/" + LEADER + "-9000/primary");
    }

    @Test
    void otherWorkloadTypesUseTheirOwnProbe() {
        ReplicaSetSpec etcd = set("etcd");
        etcd.getRoleProbe().setPort(2379);
        etcd.getRoleProbe().setPath("/leader-check");

        assertThat(roles.roleOf(etcd, cvm(REPLICA))).isEqualTo(InstanceRole.REPLICA);
        assertThat(roles.roleOf(etcd, cvm(LEADER))).isEqualTo(InstanceRole.LEADER);

        assertThat(requests).containsExactly("GET /gw/" + REPLICA + "-2379/leader-check",
                "GET /gw/" + LEADER + "-2379/leader-check");
    }

    @Test
    void withoutProbeOrDefaultTheRoleIsUnknownAndNothingIsAsked() {
        assertThat(roles.roleOf(set("generic"), cvm(LEADER))).isEqualTo(InstanceRole.UNKNOWN);
        assertThat(roles.roleOf(set("consul"), cvm(LEADER))).isEqualTo(InstanceRole.UNKNOWN);

        assertThat(requests).isEmpty();
    }

    @Test
    void aCvmThatHasNotBootedIsUnknownAndNothingIsAsked() {
        assertThat(roles.roleOf(set("patroni"), cvm(null))).isEqualTo(InstanceRole.UNKNOWN);

        assertThat(requests).isEmpty();
    }

    @Test
    void noAnswerWithinTheHealthCheckTimeoutIsUnknown() {
        long start = System.nanoTime();

        assertThat(roles.roleOf(set("patroni", 1), cvm(HANGS))).isEqualTo(InstanceRole.UNKNOWN);

        Duration took = Duration.ofNanos(System.nanoTime() - start);
        assertThat(took).as("bounded by healthCheck.timeoutSeconds (1 s), not the server's 30 s")
                .isGreaterThanOrEqualTo(Duration.ofMillis(900)).isLessThan(Duration.ofSeconds(15));
    }

    @Test
    void aRefusedConnectionIsUnknown() throws IOException {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = socket.getLocalPort();
        }
        InstanceRoles nowhere = rolesVia("http://127.0.0.1:" + closedPort + "/gw/{instanceId}-{port}{path}");

        assertThat(nowhere.roleOf(set("patroni"), cvm(LEADER))).isEqualTo(InstanceRole.UNKNOWN);
    }

    @Test
    void withoutTheGatewayDomainTheProductionTemplateHasNoUrlAndTheRoleIsUnknown() {
        InstanceRoles production = new InstanceRoles(new HttpHealthProbe(), InstanceUrlTemplate.production());
        CvmInfo noGateway = new CvmInfo("cvm_x", "db-0", "a".repeat(40), "uuid", LEADER, "running", false, null, null,
                null, null, null, null, null, null, null, null, null, null, null, null);

        assertThat(production.roleOf(set("patroni"), noGateway)).isEqualTo(InstanceRole.UNKNOWN);
    }
}
