package com.statefulcvm.web.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.statefulcvm.web.cluster.ProcessHarness.Http;
import com.statefulcvm.web.cluster.ProcessHarness.Launched;
import com.statefulcvm.workloads.EtcdClusterFixture;
import com.statefulcvm.workloads.PatroniClusterFixture;
import com.statefulcvm.workloads.WorkloadScripts;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import static com.statefulcvm.web.cluster.ProcessHarness.log;
import static com.statefulcvm.web.cluster.ProcessHarness.waitUntil;

/**
 * What the chaos checker runs against, every part a real process: a PostgreSQL server of its own (so that it can be
 * restarted), a real 3-member etcd and a real 3-node Patroni behind simulated CVMs, the standalone simulator as Phala
 * Cloud, and {@value #NODES} orchestrator nodes of the built jar on that database. The nodes run with the simulator's
 * code enabled only for its attestation root: both simulators derive it from one {@code simulator.authority-seed}, so
 * the nodes verify the standalone simulator's evidence for real (attestation is required for every set), while Phala
 * is the standalone simulator and nothing else.
 */
final class ChaosCluster implements AutoCloseable {

    static final int NODES = 2;
    static final String API_KEY = "chaos-simulator-key";
    static final String ADMIN_PASSWORD = "chaos-admin";
    /** A killed node's jobs wait this long for another node; far above a step, far below the deadlines. */
    static final long LOCK_TIME_MS = 15_000;
    private static final Duration START_TIMEOUT = Duration.ofSeconds(300);

    final ProcessHarness harness;
    final Path pgDir;
    final EtcdClusterFixture etcd;
    final PatroniClusterFixture patroni;
    final Http simulator;
    final Map<String, String> pg = new LinkedHashMap<>();
    private final Launched simulatorProcess;
    private final Node[] nodes = new Node[NODES];
    private final Map<String, String> nodeEnv;
    private final String authoritySeed = "chaos-" + System.nanoTime();

    /** One orchestrator node: its process (null while it is down) and its API. */
    static final class Node {
        final String name;
        final int port;
        final Http api;
        Launched process;

        Node(String name, int port) {
            this.name = name;
            this.port = port;
            this.api = new Http("http://127.0.0.1:" + port, "admin", ADMIN_PASSWORD);
        }

        boolean up() {
            return process != null && process.alive();
        }
    }

    ChaosCluster() throws Exception {
        harness = new ProcessHarness("ChaosIT");
        Path run = harness.runDir();
        try {
            // the database, in a directory the postgres user can reach
            pgDir = Files.createTempDirectory("chaos-pg-", PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
            WorkloadScripts.Result started = WorkloadScripts.run(120, "postgres-server.sh", "start", pgDir.resolve("server").toString(),
                    "orchestrator", "orch_chaos").requireSuccess("postgres-server.sh start");
            started.output().lines().filter(l -> l.startsWith("ORCH_TEST_PG_")).forEach(l -> {
                int eq = l.indexOf('=');
                pg.put(l.substring(0, eq), l.substring(eq + 1));
            });
            log("chaos database " + pg.get("ORCH_TEST_PG_URL"));

            etcd = EtcdClusterFixture.start(run.resolve("etcd"), 3, "etcd");
            patroni = PatroniClusterFixture.start(run.resolve("pgha"), 3, "pgha");
            patroni.awaitStreaming(120);
            log("workloads up: etcd " + etcd.members().size() + " members, Patroni leader " + patroni.initialLeader());

            int simPort = ProcessHarness.freePort();
            simulator = new Http("http://127.0.0.1:" + simPort, null, null);
            List<String> simArgs = new ArrayList<>(List.of("--server.port=" + simPort, "--server.address=127.0.0.1",
                    "--simulator.api-key=" + API_KEY, "--simulator.authority-seed=" + authoritySeed,
                    "--simulator.state-file=" + run.resolve("simulator/state.json"),
                    "--simulator.timings.create-ms=300", "--simulator.timings.start-ms=400",
                    "--simulator.timings.stop-ms=300", "--simulator.timings.shutdown-ms=300",
                    "--simulator.timings.restart-ms=600", "--simulator.timings.update-ms=1500",
                    "--simulator.timings.delete-ms=300"));
            Map<String, String> backends = new LinkedHashMap<>(etcd.backendProperties());
            backends.putAll(patroni.backendProperties());
            backends.forEach((key, value) -> simArgs.add("--" + key + "=" + value));
            for (String cvm : List.of("etcd-0", "etcd-1", "etcd-2", "pgha-0", "pgha-1", "pgha-2")) {
                simArgs.add("--simulator.backends." + cvm + ".request-timeout=PT3S");
            }
            simulatorProcess = harness.start("simulator", harness.simulatorJar(), run.resolve("simulator"), Map.of(), simArgs);
            waitUntil(START_TIMEOUT, "the simulator to answer", () -> {
                simulatorProcess.assertAlive();
                return simulator.answers("/simulator/_admin/events");
            });

            ChaosFleet.writeProfile(run.resolve("conf/application-chaos.yaml"), simPort, authoritySeed);
            nodeEnv = Map.of(
                    "ORCHESTRATOR_DB_URL", pg.get("ORCH_TEST_PG_URL"),
                    "ORCHESTRATOR_DB_USER", pg.get("ORCH_TEST_PG_USER"),
                    "ORCHESTRATOR_DB_PASSWORD", pg.get("ORCH_TEST_PG_PASSWORD"),
                    "PHALA_API_KEY", API_KEY,
                    "ORCHESTRATOR_ADMIN_PASSWORD", ADMIN_PASSWORD);
            for (int i = 0; i < NODES; i++) {
                nodes[i] = new Node("node-" + (i + 1), ProcessHarness.freePort());
            }
            // the first node alone: it creates the schemas, the apps and the CVMs; then the others
            start(0);
            awaitReady(0);
            for (int i = 1; i < NODES; i++) {
                start(i);
            }
            for (int i = 1; i < NODES; i++) {
                awaitReady(i);
            }
            awaitFleetRunning(Duration.ofSeconds(240));
        } catch (Exception | Error failure) {
            harness.dumpLogs(60);
            close();
            throw failure;
        }
    }

    Node node(int i) {
        return nodes[i];
    }

    int nodes() {
        return NODES;
    }

    /** A node that is up, or null when none is. */
    Node liveNode() {
        for (Node node : nodes) {
            if (node.up()) {
                return node;
            }
        }
        return null;
    }

    void start(int i) throws IOException {
        Node node = nodes[i];
        Path run = harness.runDir();
        node.process = harness.start(node.name, harness.appJar(), run.resolve(node.name), nodeEnv, List.of(
                "--server.port=" + node.port, "--server.address=127.0.0.1",
                "--spring.profiles.active=postgres,chaos",
                "--spring.config.additional-location=file:" + ProcessHarness.repoDir().resolve("config") + "/,file:" + run.resolve("conf") + "/",
                "--camunda.bpm.generic-properties.properties.hostname=" + node.name,
                "--orchestrator.healing.node-id=" + node.name,
                "--management.endpoint.health.probes.enabled=true"));
    }

    /**
     * Waits until the node is ready. A node that exits while it starts (the database restarted under it, as seed 7 can
     * do on a loaded machine: the engine's first connection is refused) is started again, as its supervisor (systemd,
     * Kubernetes) would, up to {@value #START_ATTEMPTS} starts in all.
     */
    void awaitReady(int i) {
        Node node = nodes[i];
        for (int attempt = 1; ; attempt++) {
            try {
                waitUntil(START_TIMEOUT, node.name + " to be ready", () -> {
                    node.process.assertAlive();
                    try {
                        return node.api.get("/actuator/health/readiness").statusCode() == 200;
                    } catch (Exception notYet) {
                        return false;
                    }
                });
                return;
            } catch (AssertionError exited) {
                if (node.process.alive() || attempt >= START_ATTEMPTS) {
                    throw exited;
                }
                try {
                    start(i);
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }
        }
    }

    private static final int START_ATTEMPTS = 3;

    /** kill -9 of the node's JVM. */
    void kill(int i) throws InterruptedException {
        Node node = nodes[i];
        if (node.process != null) {
            node.process.kill();
        }
    }

    /** The orchestrator's database stopped (sessions cut), down {@code seconds}, then started again, same data. */
    void restartDatabase(int seconds) {
        WorkloadScripts.run(120, "postgres-server.sh", "restart", pgDir.resolve("server").toString(), Integer.toString(seconds))
                .requireSuccess("postgres-server.sh restart");
    }

    Connection database() throws SQLException {
        Properties credentials = new Properties();
        credentials.put("user", pg.get("ORCH_TEST_PG_USER"));
        credentials.put("password", pg.get("ORCH_TEST_PG_PASSWORD"));
        return DriverManager.getConnection(pg.get("ORCH_TEST_PG_URL"), credentials);
    }

    /** The simulator's Phala API, with its key. */
    JsonNode phala(String path) throws Exception {
        return simulator.getJson("/simulator/api/v1" + path, Map.of("X-API-Key", API_KEY));
    }

    /** Every CVM of the workspace, by name. */
    Map<String, JsonNode> cvms() throws Exception {
        Map<String, JsonNode> byName = new LinkedHashMap<>();
        for (int page = 1; ; page++) {
            JsonNode answer = phala("/cvms/paginated?page=" + page + "&page_size=100");
            answer.get("items").forEach(cvm -> byName.put(cvm.get("name").asText(), cvm));
            if (page * 100 >= answer.get("total").asInt()) {
                return byName;
            }
        }
    }

    HttpResponse<String> admin(String method, String path, Object body) throws Exception {
        return switch (method) {
            case "POST" -> simulator.postJson("/simulator/_admin" + path, body == null ? Map.of() : body);
            case "DELETE" -> simulator.delete("/simulator/_admin" + path);
            default -> simulator.get("/simulator/_admin" + path);
        };
    }

    /** Every CVM of the fleet runs and is settled (the heals of the last seed done). */
    boolean fleetRunning() {
        return notRunning().isEmpty();
    }

    /** The fleet's slots whose CVM does not run settled now, each with what Phala shows ("pgha-2 (stopped)"). */
    List<String> notRunning() {
        try {
            Map<String, JsonNode> cvms = cvms();
            List<String> down = new ArrayList<>();
            for (String slot : ChaosFleet.slots()) {
                JsonNode cvm = cvms.get(slot);
                if (cvm == null) {
                    down.add(slot + " (no CVM)");
                } else if (!"running".equals(cvm.path("status").asText()) || cvm.path("in_progress").asBoolean(false)) {
                    down.add(slot + " (" + cvm.path("status").asText() + (cvm.path("in_progress").asBoolean(false) ? ", in progress" : "") + ")");
                }
            }
            return down;
        } catch (Exception notYet) {
            return List.of("the simulator did not answer: " + notYet);
        }
    }

    void awaitFleetRunning(Duration timeout) {
        waitUntil(timeout, "every CVM of the fleet to run", this::fleetRunning);
    }

    @Override
    public void close() {
        harness.close();
        if (patroni != null) {
            patroni.close();
        }
        if (etcd != null) {
            etcd.close();
        }
        if (pgDir != null) {
            WorkloadScripts.run(60, "postgres-server.sh", "stop", pgDir.resolve("server").toString());
        }
    }
}
