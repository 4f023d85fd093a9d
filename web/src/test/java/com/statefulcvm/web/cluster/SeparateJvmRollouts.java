package com.statefulcvm.web.cluster;

import com.statefulcvm.workloads.TestPostgres;
import com.statefulcvm.web.cluster.ProcessHarness.Http;
import com.statefulcvm.web.cluster.ProcessHarness.Launched;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static com.statefulcvm.web.cluster.ProcessHarness.log;
import static com.statefulcvm.web.cluster.ProcessHarness.waitUntil;

/**
 * The capacity benchmark's two-node part, as a deployment runs: each orchestrator node its own JVM (the built jar,
 * profiles {@code phala} and {@code postgres}), all on one fresh PostgreSQL database, against the standalone simulator
 * in a JVM of its own. {@code sets} sets of {@code setSize} generic instances (auto-healing on, attestation not required:
 * the standalone simulator's quotes are signed by a test root only an embedded simulator may trust) get a rollout each
 * at the same moment, posted to the first node; the engine's job log says which node ran which job, the history and the
 * simulator's journal whether anything ran twice.
 */
public final class SeparateJvmRollouts {

    private static final String API_KEY = "capacity-simulator-key";
    private static final String ADMIN_PASSWORD = "capacity-admin";

    private SeparateJvmRollouts() {
    }

    /**
     * What one run measured.
     *
     * @param stepsPerSecond     instance steps of the completed rollouts per second of makespan
     * @param jobsByNode         successful engine jobs of the rollouts by the node that ran them
     * @param appliesNotOnce     rollouts whose apply step did not complete exactly once per instance
     * @param cvmsNotUpdatedOnce CVMs of the rolled-out sets that did not go running → updating exactly once
     */
    public record Result(int nodes, int setSize, int rollouts, int completed, double postSeconds, double theoreticalSeconds, double medianSeconds,
                         double maxSeconds, double makespanSeconds, double stepsPerSecond, long jobs, Map<String, Long> jobsByNode,
                         int appliesNotOnce, Map<String, Integer> cvmsNotUpdatedOnce, int incidents) {

        public String row(String label) {
            return String.format(Locale.ROOT, "| %s | %d (%d) | %.1f | %.1f | %.1f / %.1f | %.1f | %.2f | %.1f | %.1f | %.2f | %s |",
                    label, rollouts, completed, postSeconds, theoreticalSeconds, medianSeconds, maxSeconds, makespanSeconds,
                    makespanSeconds / theoreticalSeconds, stepsPerSecond, jobs / Math.max(0.001, makespanSeconds),
                    jobs / (double) Math.max(1, completed * setSize), jobsByNode);
        }

        /** Both (every) nodes ran jobs, every rollout completed, no apply and no CVM update twice, no incident. */
        public List<String> problems() {
            List<String> problems = new ArrayList<>();
            if (completed < rollouts) {
                problems.add(completed + " of " + rollouts + " rollouts completed");
            }
            if (jobsByNode.size() < nodes || jobsByNode.values().stream().anyMatch(n -> n == 0)) {
                problems.add("not every node ran jobs: " + jobsByNode);
            }
            if (appliesNotOnce > 0) {
                problems.add(appliesNotOnce + " rollouts applied an instance's action other than once");
            }
            if (!cvmsNotUpdatedOnce.isEmpty()) {
                problems.add("CVMs not updated exactly once: " + cvmsNotUpdatedOnce);
            }
            if (incidents > 0) {
                problems.add(incidents + " incidents");
            }
            return problems;
        }
    }

    /**
     * @param maxUnavailable the rollouts' maxUnavailable ("50%" or a number)
     * @param rounds         the rollouts' waves (for the theoretical minimum: rounds x (update + min ready))
     */
    public static Result run(int nodes, int sets, int setSize, String maxUnavailable, int rounds) throws Exception {
        TestPostgres postgres = TestPostgres.requireServer();
        String database = postgres.createDatabase("capacity");
        try (ProcessHarness harness = new ProcessHarness("capacity-" + nodes + "-nodes")) {
            try {
                return run(harness, postgres, database, nodes, sets, setSize, maxUnavailable, rounds);
            } catch (Throwable failure) {
                harness.dumpLogs(40);
                throw failure;
            }
        } finally {
            postgres.dropDatabase(database);
        }
    }

    private static Result run(ProcessHarness harness, TestPostgres postgres, String database, int nodes, int sets, int setSize,
                              String maxUnavailable, int rounds) throws Exception {
        Path run = harness.runDir();
        int simPort = ProcessHarness.freePort();
        Http simulator = new Http("http://127.0.0.1:" + simPort, null, null);
        Launched sim = harness.start("simulator", harness.simulatorJar(), run.resolve("simulator"), Map.of(), List.of("-Xmx1g"), List.of(
                "--server.port=" + simPort, "--server.address=127.0.0.1", "--simulator.api-key=" + API_KEY,
                "--simulator.state-file=" + run.resolve("simulator/state.json"),
                "--simulator.timings.create-ms=100", "--simulator.timings.start-ms=500", "--simulator.timings.stop-ms=100",
                "--simulator.timings.shutdown-ms=100", "--simulator.timings.restart-ms=1000", "--simulator.timings.update-ms=1000",
                "--simulator.timings.delete-ms=100",
                // a fleet beyond the default workspace's 100 CVMs
                "--simulator.quota.vm-slots=100000", "--simulator.quota.vcpu=1000000",
                "--simulator.quota.memory-mb=1000000000", "--simulator.quota.disk-gb=100000000"));
        waitUntil(Duration.ofMinutes(4), "the simulator to answer", () -> {
            sim.assertAlive();
            return simulator.answers("/simulator/_admin/events");
        });
        writeProfile(run.resolve("conf/application-capacitytest.yaml"), simPort, sets, setSize);
        Map<String, String> env = Map.of("ORCHESTRATOR_DB_URL", database, "ORCHESTRATOR_DB_USER", postgres.user,
                "ORCHESTRATOR_DB_PASSWORD", postgres.password, "PHALA_API_KEY", API_KEY, "PHALA_CLOUD_API_KEY", API_KEY,
                "ORCHESTRATOR_ADMIN_PASSWORD", ADMIN_PASSWORD);
        List<Http> apis = new ArrayList<>();
        for (int n = 1; n <= nodes; n++) {
            String name = "node-" + n;
            int port = ProcessHarness.freePort();
            Launched node = harness.start(name, harness.appJar(), run.resolve(name), env, List.of("-Xmx2g"), List.of(
                    "--server.port=" + port, "--server.address=127.0.0.1",
                    "--spring.profiles.active=phala,postgres,capacitytest",
                    "--spring.config.additional-location=file:" + ProcessHarness.repoDir().resolve("config") + "/,file:" + run.resolve("conf") + "/",
                    "--camunda.bpm.generic-properties.properties.hostname=" + name,
                    "--orchestrator.healing.node-id=" + name,
                    "--orchestrator.bootstrap.create-missing-apps=true",
                    "--management.endpoint.health.probes.enabled=true"));
            Http api = new Http("http://127.0.0.1:" + port, "admin", ADMIN_PASSWORD);
            TwoNodeFailoverIT.awaitNodeReady(node, api);
            apis.add(api);
            log(name + " ready");
        }
        waitUntil(Duration.ofMinutes(10), "every CVM to run", () -> allRunning(simulator, sets * setSize));

        Journal journal = new Journal(simulator);
        long since = journal.lastSeq();
        String compose = "services:\n  web:\n    image: nginxdemos/hello:capacity-" + System.nanoTime() + "\n";
        Object policy = maxUnavailable.endsWith("%") ? maxUnavailable : Integer.parseInt(maxUnavailable);
        ExecutorService posts = Executors.newFixedThreadPool(16);
        long first = System.currentTimeMillis();
        List<Future<String>> started = new ArrayList<>();
        for (int i = 0; i < sets; i++) {
            String set = setName(i);
            started.add(posts.submit(() -> {
                HttpResponse<String> answer = apis.get(0).postJson("/api/replica-sets/" + set + "/rollouts",
                        Map.of("dockerCompose", compose, "updatePolicy", Map.of("maxUnavailable", policy)));
                if (answer.statusCode() != 201) {
                    throw new IllegalStateException("rollout of " + set + ": " + answer.statusCode() + " " + answer.body());
                }
                return ProcessHarness.JSON.readTree(answer.body()).get("processInstanceId").asText();
            }));
        }
        List<String> pids = new ArrayList<>();
        for (Future<String> f : started) {
            pids.add(f.get());
        }
        posts.shutdown();
        double postSeconds = (System.currentTimeMillis() - first) / 1000.0;
        try (Connection db = postgres.connect(database)) {
            waitUntil(Duration.ofMinutes(30), "every rollout to end", () -> {
                try {
                    return count(db, "SELECT COUNT(*) FROM act_hi_procinst WHERE end_time_ IS NOT NULL AND proc_inst_id_ = ANY(?)", pids) == pids.size();
                } catch (Exception e) {
                    return false;
                }
            });
            List<Long> durations = new ArrayList<>();
            long lastEnd = first;
            int completed = 0;
            try (PreparedStatement s = db.prepareStatement("SELECT start_time_, end_time_, end_act_id_ FROM act_hi_procinst WHERE proc_inst_id_ = ANY(?)")) {
                s.setArray(1, db.createArrayOf("varchar", pids.toArray()));
                try (ResultSet rs = s.executeQuery()) {
                    while (rs.next()) {
                        durations.add(rs.getTimestamp(2).getTime() - rs.getTimestamp(1).getTime());
                        lastEnd = Math.max(lastEnd, rs.getTimestamp(2).getTime());
                        completed += "EndEvent_RolloutCompleted".equals(rs.getString(3)) ? 1 : 0;
                    }
                }
            }
            durations.sort(Long::compare);
            Map<String, Long> jobsByNode = new TreeMap<>();
            try (PreparedStatement s = db.prepareStatement("SELECT hostname_, COUNT(*) FROM act_hi_job_log WHERE job_state_ = 2"
                    + " AND root_proc_inst_id_ = ANY(?) GROUP BY hostname_")) {
                s.setArray(1, db.createArrayOf("varchar", pids.toArray()));
                try (ResultSet rs = s.executeQuery()) {
                    while (rs.next()) {
                        jobsByNode.put(rs.getString(1), rs.getLong(2));
                    }
                }
            }
            int appliesNotOnce = 0;
            try (PreparedStatement s = db.prepareStatement("SELECT proc_inst_id_, COUNT(*) FROM act_hi_actinst WHERE act_id_ ="
                    + " 'Task_ApplyPlannedAction' AND end_time_ IS NOT NULL AND root_proc_inst_id_ = ANY(?) GROUP BY proc_inst_id_")) {
                s.setArray(1, db.createArrayOf("varchar", pids.toArray()));
                try (ResultSet rs = s.executeQuery()) {
                    while (rs.next()) {
                        appliesNotOnce += rs.getLong(2) == setSize ? 0 : 1;
                    }
                }
            }
            int incidents = count(db, "SELECT COUNT(*) FROM act_hi_incident WHERE root_proc_inst_id_ = ANY(?)", pids);
            List<Journal.Event> events = journal.since(since);
            Map<String, Integer> notOnce = new TreeMap<>();
            for (int i = 0; i < sets; i++) {
                Journal.updatesPerCvm(events, setName(i), setSize).forEach((cvm, n) -> {
                    if (n != 1) {
                        notOnce.put(cvm, n);
                    }
                });
            }
            long jobs = jobsByNode.values().stream().mapToLong(Long::longValue).sum();
            double makespan = (lastEnd - first) / 1000.0;
            return new Result(nodes, setSize, pids.size(), completed, postSeconds, rounds * 2.0,
                    durations.isEmpty() ? 0 : durations.get(durations.size() / 2) / 1000.0,
                    durations.isEmpty() ? 0 : durations.get(durations.size() - 1) / 1000.0, makespan,
                    completed * setSize / Math.max(0.001, makespan), jobs, jobsByNode, appliesNotOnce, notOnce, incidents);
        }
    }

    static String setName(int i) {
        return String.format(Locale.ROOT, "cap-%03d", i);
    }

    private static boolean allRunning(Http simulator, int cvms) {
        try {
            return simulator.getJson("/simulator/api/v1/cvms/paginated?page=1&page_size=1&status=running", Map.of("X-API-Key", API_KEY))
                    .path("total").asInt() >= cvms;
        } catch (Exception notYet) {
            return false;
        }
    }

    private static int count(Connection db, String sql, List<String> ids) throws Exception {
        try (PreparedStatement s = db.prepareStatement(sql)) {
            s.setArray(1, db.createArrayOf("varchar", ids.toArray()));
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }

    /** The fleet and the timings, as the capacity profile has them for one node with an embedded simulator. */
    private static void writeProfile(Path file, int simPort, int sets, int setSize) throws Exception {
        Files.createDirectories(file.getParent());
        String sim = "http://127.0.0.1:" + simPort;
        StringBuilder yaml = new StringBuilder(String.format(Locale.ROOT, """
                # the capacity benchmark's two-node part: the phala and postgres profiles, pointed at the standalone simulator
                spring:
                  datasource:
                    hikari:
                      maximum-pool-size: 30
                camunda:
                  bpm:
                    job-execution:
                      wait-time-in-millis: 50
                      max-wait: 1000
                      core-pool-size: 12
                      max-pool-size: 12
                      queue-capacity: 48
                      max-jobs-per-acquisition: 12
                orchestrator:
                  # everything runs on loopback: no TLS to terminate (the production profile asks who does)
                  security:
                    trusted-proxies: '127\\.0\\.0\\.1'
                  phala:
                    base-url: %1$s/simulator/api/v1
                    initial-backoff: PT0.05S
                    max-backoff: PT1S
                    max-attempts: 6
                  health:
                    url-template: %1$s/simulator/gateway/{instanceId}-{port}{path}
                  rollout:
                    cvm-poll-interval: PT0.25S
                    waker-threads: 12
                  attestation:
                    pccs-url: %1$s/simulator/pccs
                  fleet:
                    replica-sets:
                """, sim));
        for (int i = 0; i < sets; i++) {
            yaml.append(String.format(Locale.ROOT, """
                          - name: %s
                            replicas: %d
                            workload-type: generic
                            docker-compose: |
                              services:
                                web:
                                  image: nginxdemos/hello:0.3
                            update-policy:
                              max-unavailable: 1
                              min-ready-seconds: 1
                              progress-deadline-seconds: 600
                              on-failure: PAUSE
                            health-check:
                              http: { port: 8080, path: /health, expect-status: 200 }
                              interval-seconds: 10
                              timeout-seconds: 5
                              healthy-threshold: 1
                              unhealthy-threshold: 3
                            attestation:
                              required: false
                            approvals:
                              before-rollout: false
                              between-instances: false
                            auto-healing:
                              enabled: true
                              initial-delay-seconds: 2
                              approval: none
                    """, setName(i), setSize));
        }
        Files.writeString(file, yaml.toString());
    }

    /** A one-line description of a result's checks for the report. */
    public static String checks(Result r) {
        Map<String, Object> checks = new LinkedHashMap<>();
        checks.put("rollouts whose apply step ran other than once per instance", r.appliesNotOnce());
        checks.put("CVMs not updated exactly once", r.cvmsNotUpdatedOnce().size());
        checks.put("incidents", r.incidents());
        return checks.toString();
    }
}
