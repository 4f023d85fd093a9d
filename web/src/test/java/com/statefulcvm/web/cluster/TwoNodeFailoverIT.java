package com.statefulcvm.web.cluster;

import com.statefulcvm.workloads.TestPostgres;
import com.fasterxml.jackson.databind.JsonNode;
import com.statefulcvm.web.cluster.Journal.Event;
import com.statefulcvm.web.cluster.ProcessHarness.Http;
import com.statefulcvm.web.cluster.ProcessHarness.Launched;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import static com.statefulcvm.web.cluster.ProcessHarness.log;
import static com.statefulcvm.web.cluster.ProcessHarness.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two engine nodes of the built jar on one PostgreSQL database, against the standalone simulator jar (the profiles
 * {@code phala} and {@code postgres} of {@code config/}, pointed at the simulator): a 5-replica rollout is started on
 * node 1, and node 1 is killed with SIGKILL while the first CVM is being updated, at a moment when it holds a lock on
 * one of the rollout's jobs. Node 2 must take that job over once the lock expires and finish the rollout; the
 * simulator's event journal must show every CVM updated exactly once and none left down.
 *
 * <p>Needs {@code ORCH_TEST_PG_URL}/{@code _USER}/{@code _PASSWORD} (skipped without them); run by failsafe after
 * {@code package}: {@code mvn verify}.
 */
class TwoNodeFailoverIT {

    private static final String SET = "quorum";
    private static final int REPLICAS = 5;
    private static final String API_KEY = "cluster-it-simulator-key";
    private static final String ADMIN_PASSWORD = "cluster-it-admin";
    /** Short for the test (the postgres profile's is 5 minutes): a job held by the killed node waits this long. */
    private static final long LOCK_TIME_MS = 10_000;
    private static final Duration START_TIMEOUT = Duration.ofSeconds(240);

    private static final String NEW_COMPOSE = "services:\n  web:\n    image: nginxdemos/hello:failover\n";

    @Test
    void killingTheNodeThatRunsARolloutMidUpdateLetsTheOtherNodeFinishItWithEveryCvmUpdatedOnce() throws Exception {
        TestPostgres postgres = TestPostgres.requireServer();
        String database = postgres.createDatabase("orch_failover");
        try (ProcessHarness harness = new ProcessHarness("TwoNodeFailoverIT")) {
            try {
                run(harness, postgres, database);
            } catch (Throwable failure) {
                harness.dumpLogs(80);
                throw failure;
            }
        } finally {
            postgres.dropDatabase(database);
        }
    }

    private void run(ProcessHarness harness, TestPostgres postgres, String database) throws Exception {
        Path run = harness.runDir();
        int simPort = ProcessHarness.freePort();
        Http simulator = new Http("http://127.0.0.1:" + simPort, null, null);
        Journal journal = new Journal(simulator);

        // --- the standalone simulator, with its own state file and short timings
        Instant t0 = Instant.now();
        Launched sim = harness.start("simulator", harness.simulatorJar(), run.resolve("simulator"), Map.of(), List.of(
                "--server.port=" + simPort, "--server.address=127.0.0.1",
                "--simulator.api-key=" + API_KEY,
                "--simulator.state-file=" + run.resolve("simulator/state.json"),
                "--simulator.timings.create-ms=300", "--simulator.timings.start-ms=300",
                "--simulator.timings.stop-ms=200", "--simulator.timings.shutdown-ms=200",
                "--simulator.timings.restart-ms=500", "--simulator.timings.update-ms=3000",
                "--simulator.timings.delete-ms=200"));
        waitUntil(START_TIMEOUT, "the simulator to answer", () -> {
            sim.assertAlive();
            return simulator.answers("/simulator/_admin/events");
        });
        double simStart = secondsSince(t0);
        log(String.format("simulator up after %.1f s", simStart));

        writeProfile(run.resolve("conf/application-clustertest.yaml"), simPort);
        Map<String, String> env = Map.of(
                "ORCHESTRATOR_DB_URL", database,
                "ORCHESTRATOR_DB_USER", postgres.user,
                "ORCHESTRATOR_DB_PASSWORD", postgres.password,
                "PHALA_API_KEY", API_KEY,
                "PHALA_CLOUD_API_KEY", API_KEY,
                "ORCHESTRATOR_ADMIN_PASSWORD", ADMIN_PASSWORD);

        // --- node 1 alone first: it creates the engine's schema, Flyway's, the app and its 5 CVMs
        Instant t1 = Instant.now();
        int port1 = ProcessHarness.freePort();
        Launched node1 = harness.start("node-1", harness.appJar(), run.resolve("node-1"), env, nodeArgs(run, port1, "node-1"));
        Http api1 = new Http("http://127.0.0.1:" + port1, "admin", ADMIN_PASSWORD);
        awaitNodeReady(node1, api1);
        double node1Start = secondsSince(t1);
        awaitAllRunning(simulator);
        log(String.format("node-1 up after %.1f s; %d CVMs running", node1Start, REPLICAS));

        // --- node 2 on the same database; it bootstraps too, and must find the app and the CVMs already there
        Instant t2 = Instant.now();
        int port2 = ProcessHarness.freePort();
        Launched node2 = harness.start("node-2", harness.appJar(), run.resolve("node-2"), env, nodeArgs(run, port2, "node-2"));
        Http api2 = new Http("http://127.0.0.1:" + port2, "admin", ADMIN_PASSWORD);
        awaitNodeReady(node2, api2);
        double node2Start = secondsSince(t2);
        log(String.format("node-2 up after %.1f s", node2Start));
        JsonNode cvms = simulator.getJson("/simulator/api/v1/cvms/paginated?page=1&page_size=100", Map.of("X-API-Key", API_KEY, "X-Phala-Version", "2026-05-22"));
        assertThat(cvms.get("total").asInt()).as("the second node's bootstrap created nothing more").isEqualTo(REPLICAS);
        assertThat(simulator.getJson("/simulator/api/v1/apps?page=1&page_size=20", Map.of("X-API-Key", API_KEY, "X-Phala-Version", "2026-05-22"))
                .get("total").asInt()).as("one app").isEqualTo(1);

        try (Connection db = postgres.connect(database)) {
            checkSchema(db, api2);
            String before = composeHash(simulator, SET + "-0");
            long since = journal.lastSeq();

            // --- the rollout, started on node 1
            Instant started = Instant.now();
            HttpResponse<String> created = api1.postJson("/api/replica-sets/" + SET + "/rollouts", Map.of("dockerCompose", NEW_COMPOSE));
            assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
            String pid = ProcessHarness.JSON.readTree(created.body()).get("processInstanceId").asText();
            log("rollout " + pid + " started on node-1");

            // --- watch until the first CVM is updating and node 1 holds a lock on one of the rollout's jobs; kill it.
            // A sample every few milliseconds: a job is locked for tens of milliseconds.
            KillOnHeldLock watch = new KillOnHeldLock(new LockWatch(db, pid), journal, since, node1, node2);
            await("the rollout reached its first update and node-1 took a job").atMost(Duration.ofSeconds(180))
                    .pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(2)).until(watch::killedNode1);
            Instant killedAt = watch.killedAt;
            List<LockedJob> heldAtKill = watch.heldAtKill;
            log(String.format("killed node-1 (SIGKILL) %.1f s into the rollout, %d update(s) started; jobs it held: %s (lock owners seen: %s)",
                    Duration.between(started, killedAt).toMillis() / 1000.0, watch.updatesStarted, heldAtKill, watch.locks.hostOfOwner));

            // --- node 2 finishes it
            String state = awaitEnded(api2, node2, pid, Duration.ofSeconds(240));
            Instant ended = Instant.now();
            List<Event> events = Journal.ofSet(journal.since(since), SET);
            log("simulator journal of the rollout:\n" + Journal.describe(events));

            Map<String, String> hostOfHeldJob = new LinkedHashMap<>();
            Instant takenOverAt = null;
            for (LockedJob job : heldAtKill) {
                JobRun next = firstRunAfter(db, job.id(), killedAt);
                hostOfHeldJob.put(job.activity() + " (" + job.id() + ")", next == null ? "never run again" : next.host() + " at +"
                        + Duration.between(killedAt, next.at()).toMillis() / 1000.0 + " s");
                if (next != null && (takenOverAt == null || next.at().isAfter(takenOverAt))) {
                    takenOverAt = next.at();
                }
            }
            JobRun firstOnNode2 = firstRunOfRolloutAfter(db, pid, killedAt);
            Map<String, Integer> jobsBefore = jobsPerHost(db, pid, null, killedAt);
            Map<String, Integer> jobsAfter = jobsPerHost(db, pid, killedAt, null);
            Instant kill = killedAt;
            Instant nextEvent = events.stream().map(Event::at).filter(at -> at.isAfter(kill)).findFirst().orElse(null);
            int incidents = count(db, "select count(*) from act_hi_incident where root_proc_inst_id_ = ?", pid);
            Map<String, Integer> updates = Journal.updatesPerCvm(events, SET, REPLICAS);
            Map<String, Integer> disruptions = Journal.disruptionsPerCvm(events, SET, REPLICAS);
            int applies = api2.getJson("/engine-rest/history/activity-instance?maxResults=1000&processInstanceId=" + pid + "&activityId=Task_ApplyPlannedAction").size();
            int drains = api2.getJson("/engine-rest/history/activity-instance?maxResults=1000&processInstanceId=" + pid + "&activityId=CallActivity_DrainInstance").size();

            System.out.println("==== TwoNodeFailoverIT measured");
            System.out.printf("  start-up: simulator %.1f s, node-1 %.1f s (empty database: schema + app + 5 CVMs), node-2 %.1f s%n",
                    simStart, node1Start, node2Start);
            System.out.printf("  rollout: %s after %.1f s; killed node-1 at +%.1f s%n", state,
                    Duration.between(started, ended).toMillis() / 1000.0, Duration.between(started, killedAt).toMillis() / 1000.0);
            System.out.printf("  jobs node-1 held at the kill: %s%n", hostOfHeldJob.isEmpty() ? "none" : hostOfHeldJob);
            System.out.printf("  takeover: held jobs re-run %s after the kill (lock time %.0f s); node-2's first rollout job after it at +%s s; next CVM status change at +%s s%n",
                    takenOverAt == null ? "-" : Duration.between(killedAt, takenOverAt).toMillis() / 1000.0 + " s", LOCK_TIME_MS / 1000.0,
                    firstOnNode2 == null ? "-" : Duration.between(killedAt, firstOnNode2.at()).toMillis() / 1000.0,
                    nextEvent == null ? "-" : Duration.between(killedAt, nextEvent).toMillis() / 1000.0);
            System.out.printf("  job executions (successful) per node: before the kill %s, after it %s%n", jobsBefore, jobsAfter);
            System.out.printf("  CVM updates (running -> updating) per CVM: %s; went down (left running) per CVM: %s; drain steps %d, apply steps %d; most down at once %d; incidents %d%n",
                    updates, disruptions, drains, applies, Journal.maxDown(events), incidents);

            assertThat(state).isEqualTo("COMPLETED");
            assertThat(api2.getJson("/engine-rest/history/activity-instance?maxResults=1000&processInstanceId=" + pid
                    + "&activityId=EndEvent_RolloutCompleted&finished=true")).as("ended at Rollout completed").hasSize(1);
            assertThat(updates.values()).as("every CVM updated exactly once: " + updates).containsOnly(1);
            assertThat(disruptions.values()).as("every CVM went down exactly once (no restart on top of the update): " + disruptions).containsOnly(1);
            assertThat(applies).as("one completed apply step per instance").isEqualTo(REPLICAS);
            assertThat(drains).as("the set has no pre-stop endpoint: its drain, a no-op, is skipped (one apply per instance shows no step ran again)").isZero();
            assertThat(Journal.lastStatus(events)).as("none left down").hasSize(REPLICAS).allSatisfy((cvm, status) -> assertThat(status).isEqualTo("running"));
            for (int ordinal = 0; ordinal < REPLICAS; ordinal++) {
                JsonNode cvm = simulator.getJson("/simulator/api/v1/cvms/" + SET + "-" + ordinal, Map.of("X-API-Key", API_KEY, "X-Phala-Version", "2026-05-22"));
                assertThat(cvm.get("status").asText()).isEqualTo("running");
                assertThat(cvm.get("compose_hash").asText()).as("on the new compose").isNotEqualTo(before);
            }
            assertThat(Journal.maxDown(events)).as("maxUnavailable 1 held through the takeover").isEqualTo(1);
            assertThat(jobsAfter.getOrDefault("node-1", 0)).as("the dead node ran nothing").isZero();
            assertThat(jobsAfter.getOrDefault("node-2", 0)).as("node-2 ran the rest").isPositive();
            assertThat(incidents).isZero();
            assertThat(hostOfHeldJob.values()).as("every job the dead node held ran again, on node-2").allSatisfy(v -> assertThat(v).startsWith("node-2"));
            for (LockedJob job : heldAtKill) {
                Instant rerun = firstRunAfter(db, job.id(), killedAt).at();
                assertThat(rerun).as("%s: untouched until its lock expired at %s, then taken within a few acquisition rounds", job, job.expires())
                        .isAfterOrEqualTo(job.expires().minusMillis(1_000))
                        .isBefore(job.expires().plusSeconds(30));
            }
        }
    }

    private static List<String> nodeArgs(Path run, int port, String name) {
        return List.of(
                "--server.port=" + port, "--server.address=127.0.0.1",
                "--spring.profiles.active=phala,postgres,clustertest",
                // the repository's profiles (the ones under test), then the test's own, which wins where they overlap
                "--spring.config.additional-location=file:" + ProcessHarness.repoDir().resolve("config") + "/,file:" + run.resolve("conf") + "/",
                "--camunda.bpm.generic-properties.properties.hostname=" + name,
                // both nodes bootstrap the fleet; the second must find everything there (FleetBootstrap is idempotent)
                "--orchestrator.bootstrap.create-missing-apps=true",
                // /actuator/health/readiness: UP once the node has started and bootstrapped
                "--management.endpoint.health.probes.enabled=true");
    }

    /** The test's profile, last in the list: the standalone simulator's URLs, short timings and the fleet. */
    private static void writeProfile(Path file, int simPort) throws Exception {
        Files.createDirectories(file.getParent());
        String sim = "http://127.0.0.1:" + simPort;
        Files.writeString(file, """
                # TwoNodeFailoverIT: the phala and postgres profiles, pointed at the standalone simulator on %1$s
                camunda:
                  bpm:
                    job-execution:
                      lock-time-in-millis: %2$d
                      wait-time-in-millis: 100
                      max-wait: 500
                orchestrator:
                  security:
                    # everything runs on loopback: no TLS to terminate (the production profile asks who does)
                    trusted-proxies: '127\\.0\\.0\\.1'
                  phala:
                    base-url: %1$s/simulator/api/v1
                    initial-backoff: PT0.1S
                    max-backoff: PT0.5S
                  health:
                    url-template: %1$s/simulator/gateway/{instanceId}-{port}{path}
                  rollout:
                    cvm-poll-interval: PT0.25S
                  observe:
                    enabled: false
                  attestation:
                    pccs-url: %1$s/simulator/pccs
                  fleet:
                    replica-sets:
                      - name: quorum
                        replicas: 5
                        workload-type: generic
                        docker-compose: |
                          services:
                            web:
                              image: nginxdemos/hello:0.3
                        update-policy:
                          max-unavailable: 1
                          min-ready-seconds: 0
                          order: ordinal-descending
                          progress-deadline-seconds: 120
                        health-check:
                          http: { port: 8080, path: /health, expect-status: 200 }
                          interval-seconds: 1
                          timeout-seconds: 1
                          healthy-threshold: 1
                          unhealthy-threshold: 2
                        # the simulator's quotes are signed by its own test root, trusted only by an embedded simulator
                        attestation:
                          required: false
                        approvals:
                          before-rollout: false
                          between-instances: false
                """.formatted(sim, LOCK_TIME_MS));
    }

    /**
     * Ready means Spring Boot's readiness state: ACCEPTING_TRAFFIC comes after the ApplicationReadyEvent listeners,
     * so FleetBootstrap has finished. (Calling /api before that races the bootstrap's first registry inserts.)
     */
    static void awaitNodeReady(Launched node, Http api) {
        waitUntil(START_TIMEOUT, node.name + " to be ready", () -> {
            node.assertAlive();
            try {
                return api.get("/actuator/health/readiness").statusCode() == 200;
            } catch (Exception notYet) {
                return false;
            }
        });
    }

    private static void awaitAllRunning(Http simulator) {
        waitUntil(Duration.ofSeconds(60), "the 5 CVMs to run", () -> {
            try {
                for (int ordinal = 0; ordinal < REPLICAS; ordinal++) {
                    HttpResponse<String> r = simulator.get("/simulator/api/v1/cvms/" + SET + "-" + ordinal, Map.of("X-API-Key", API_KEY, "X-Phala-Version", "2026-05-22"));
                    if (r.statusCode() != 200 || !"running".equals(ProcessHarness.JSON.readTree(r.body()).path("status").asText())) {
                        return false;
                    }
                }
                return true;
            } catch (Exception notYet) {
                return false;
            }
        });
    }

    private static String composeHash(Http simulator, String cvm) throws Exception {
        return simulator.getJson("/simulator/api/v1/cvms/" + cvm, Map.of("X-API-Key", API_KEY, "X-Phala-Version", "2026-05-22")).get("compose_hash").asText();
    }

    /** The engine's schema and ours on PostgreSQL, and the postgres profile's history cleanup in effect. */
    private static void checkSchema(Connection db, Http api) throws Exception {
        String engineVersion = string(db, "select version_ from act_ge_schema_log order by timestamp_ desc limit 1");
        int migrations = count(db, "select count(*) from orch_flyway_history where success and version is not null");
        int failed = count(db, "select count(*) from orch_flyway_history where not success");
        String historyLevel = string(db, "select value_ from act_ge_property where name_ = 'historyLevel'");
        JsonNode cleanup = api.getJson("/engine-rest/history/cleanup/configuration");
        JsonNode cleanupJobs = api.getJson("/engine-rest/history/cleanup/jobs");
        System.out.printf("  PostgreSQL schema: engine %s (history level %s), Flyway %d migrations applied, %d failed; history cleanup %s, %d job(s)%n",
                engineVersion, historyLevel, migrations, failed, cleanup, cleanupJobs.size());
        assertThat(engineVersion).startsWith("7.24");
        assertThat(migrations).isPositive();
        assertThat(failed).isZero();
        assertThat(historyLevel).as("FULL").isEqualTo("3");
        assertThat(cleanup.path("enabled").asBoolean()).isTrue();
        assertThat(cleanup.path("batchWindowStartTime").asText()).as("the nightly window").isNotEmpty();
        assertThat(cleanupJobs.size()).as("one cleanup job for the cluster (degree of parallelism 1)").isEqualTo(1);
    }

    private static String awaitEnded(Http api, Launched node, String pid, Duration timeout) {
        String[] state = new String[1];
        waitUntil(timeout, "rollout " + pid + " to end", () -> {
            node.assertAlive();
            try {
                JsonNode instance = api.getJson("/engine-rest/history/process-instance/" + pid);
                state[0] = instance.path("state").asText();
                return !instance.path("endTime").isNull() && !instance.path("endTime").isMissingNode();
            } catch (Exception notYet) {
                return false;
            }
        });
        return state[0];
    }

    record LockedJob(String id, String owner, Instant expires, String activity) {
        @Override
        public String toString() {
            return activity + " " + id;
        }
    }

    record JobRun(String host, Instant at) {
    }

    /**
     * Which node holds which of the rollout's jobs: ACT_RU_JOB shows the lock owner (a random id per job executor)
     * while a job is locked, ACT_HI_JOB_LOG the host name that ran it; a job seen in both ties an owner to a node.
     */
    /** Samples the rollout's job locks and kills node 1 the moment it holds one (or, never caught, mid-rollout). */
    private static final class KillOnHeldLock {
        private final LockWatch locks;
        private final Journal journal;
        private final long since;
        private final Launched node1;
        private final Launched node2;
        private long lastJournalPoll;
        private List<Event> seen = List.of();
        long updatesStarted;
        Instant killedAt;
        List<LockedJob> heldAtKill = List.of();

        KillOnHeldLock(LockWatch locks, Journal journal, long since, Launched node1, Launched node2) {
            this.locks = locks;
            this.journal = journal;
            this.since = since;
            this.node1 = node1;
            this.node2 = node2;
        }

        boolean killedNode1() throws Exception {
            node1.assertAlive();
            node2.assertAlive();
            List<LockedJob> locked = locks.sample();
            if (System.nanoTime() - lastJournalPoll > 50_000_000L) {
                lastJournalPoll = System.nanoTime();
                seen = Journal.ofSet(journal.since(since), SET);
                locks.learnOwners();
            }
            updatesStarted = seen.stream().filter(Event::startsUpdate).count();
            if (updatesStarted == 0) {
                return false;
            }
            String owner1 = locks.ownerOf("node-1");
            List<LockedJob> held = owner1 == null ? List.of()
                    : locked.stream().filter(j -> j.owner().equals(owner1) && j.expires().isAfter(Instant.now())).toList();
            boolean lateFallback = updatesStarted >= 3;   // never caught node 1 holding a job: kill it mid-rollout anyway
            if (held.isEmpty() && !lateFallback) {
                return false;
            }
            node1.kill();
            killedAt = Instant.now();
            heldAtKill = owner1 == null ? List.of() : locks.lockedBy(owner1);
            return true;
        }
    }

    private static final class LockWatch {
        private final Connection db;
        private final String pid;
        private final Map<String, String> ownerOfJob = new HashMap<>();
        private final Map<String, String> hostOfOwner = new HashMap<>();

        LockWatch(Connection db, String pid) {
            this.db = db;
            this.pid = pid;
        }

        List<LockedJob> sample() throws SQLException {
            List<LockedJob> locked = lockedJobs(null);
            locked.forEach(j -> ownerOfJob.put(j.id(), j.owner()));
            return locked;
        }

        List<LockedJob> lockedBy(String owner) throws SQLException {
            return lockedJobs(owner);
        }

        private List<LockedJob> lockedJobs(String owner) throws SQLException {
            List<LockedJob> jobs = new ArrayList<>();
            try (PreparedStatement s = db.prepareStatement("select j.id_, j.lock_owner_, j.lock_exp_time_, d.act_id_ from act_ru_job j "
                    + "left join act_ru_jobdef d on d.id_ = j.job_def_id_ where j.lock_owner_ is not null"
                    // ACT_RU_JOB's root_proc_inst_id_ is often empty: find the jobs of the rollout's called instances through history
                    + " and (j.process_instance_id_ = ? or j.process_instance_id_ in (select id_ from act_hi_procinst where root_proc_inst_id_ = ?))"
                    + (owner == null ? "" : " and j.lock_owner_ = ?"))) {
                s.setString(1, pid);
                s.setString(2, pid);
                if (owner != null) {
                    s.setString(3, owner);
                }
                try (ResultSet r = s.executeQuery()) {
                    while (r.next()) {
                        jobs.add(new LockedJob(r.getString(1), r.getString(2), r.getTimestamp(3).toInstant(), r.getString(4)));
                    }
                }
            }
            return jobs;
        }

        void learnOwners() throws SQLException {
            Set<String> unknown = new HashSet<>(ownerOfJob.keySet());
            if (unknown.isEmpty()) {
                return;
            }
            try (PreparedStatement s = db.prepareStatement("select job_id_, hostname_ from act_hi_job_log "
                    + "where root_proc_inst_id_ = ? and job_state_ in (1, 2)")) {
                s.setString(1, pid);
                try (ResultSet r = s.executeQuery()) {
                    while (r.next()) {
                        String owner = ownerOfJob.get(r.getString(1));
                        if (owner != null) {
                            hostOfOwner.put(owner, r.getString(2));
                        }
                    }
                }
            }
        }

        String ownerOf(String host) {
            return hostOfOwner.entrySet().stream().filter(e -> host.equals(e.getValue())).map(Map.Entry::getKey).findFirst().orElse(null);
        }
    }

    /** The first execution (successful or failed) of a job after a moment, and the node that ran it. */
    private static JobRun firstRunAfter(Connection db, String jobId, Instant after) throws SQLException {
        try (PreparedStatement s = db.prepareStatement("select hostname_, timestamp_ from act_hi_job_log "
                + "where job_id_ = ? and job_state_ in (1, 2) and timestamp_ > ? order by timestamp_ limit 1")) {
            s.setString(1, jobId);
            s.setTimestamp(2, Timestamp.from(after));
            try (ResultSet r = s.executeQuery()) {
                return r.next() ? new JobRun(r.getString(1), r.getTimestamp(2).toInstant()) : null;
            }
        }
    }

    private static JobRun firstRunOfRolloutAfter(Connection db, String pid, Instant after) throws SQLException {
        try (PreparedStatement s = db.prepareStatement("select hostname_, timestamp_ from act_hi_job_log "
                + "where root_proc_inst_id_ = ? and job_state_ = 2 and timestamp_ > ? order by timestamp_ limit 1")) {
            s.setString(1, pid);
            s.setTimestamp(2, Timestamp.from(after));
            try (ResultSet r = s.executeQuery()) {
                return r.next() ? new JobRun(r.getString(1), r.getTimestamp(2).toInstant()) : null;
            }
        }
    }

    private static Map<String, Integer> jobsPerHost(Connection db, String pid, Instant from, Instant to) throws SQLException {
        Map<String, Integer> perHost = new TreeMap<>();
        try (PreparedStatement s = db.prepareStatement("select hostname_, count(*) from act_hi_job_log where root_proc_inst_id_ = ? "
                + "and job_state_ = 2 and timestamp_ > ? and timestamp_ <= ? group by hostname_")) {
            s.setString(1, pid);
            s.setTimestamp(2, Timestamp.from(from == null ? Instant.EPOCH : from));
            s.setTimestamp(3, Timestamp.from(to == null ? Instant.now().plusSeconds(3600) : to));
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    perHost.put(r.getString(1), r.getInt(2));
                }
            }
        }
        return perHost;
    }

    private static int count(Connection db, String sql, String... args) throws SQLException {
        try (PreparedStatement s = db.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                s.setString(i + 1, args[i]);
            }
            try (ResultSet r = s.executeQuery()) {
                r.next();
                return r.getInt(1);
            }
        }
    }

    private static String string(Connection db, String sql) throws SQLException {
        try (PreparedStatement s = db.prepareStatement(sql); ResultSet r = s.executeQuery()) {
            return r.next() ? r.getString(1) : null;
        }
    }

    private static double secondsSince(Instant t) {
        return Duration.between(t, Instant.now()).toMillis() / 1000.0;
    }
}
