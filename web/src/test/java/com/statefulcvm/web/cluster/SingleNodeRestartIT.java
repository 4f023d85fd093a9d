package com.statefulcvm.web.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.statefulcvm.web.cluster.Journal.Event;
import com.statefulcvm.web.cluster.ProcessHarness.Http;
import com.statefulcvm.web.cluster.ProcessHarness.Launched;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static com.statefulcvm.web.cluster.ProcessHarness.log;
import static com.statefulcvm.web.cluster.ProcessHarness.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A single node as the README starts it (the built jar, its H2 file database and the embedded simulator with its
 * state file, both under the node's {@code ./data}), killed with SIGKILL while the first CVM of a 5-replica rollout is
 * being updated, then started again on the same directory: the rollout must resume where it was (no new plan, no
 * repeated step) and complete, every CVM updated exactly once. Needs no PostgreSQL; run by failsafe after
 * {@code package}.
 */
class SingleNodeRestartIT {

    private static final String SET = "quorum";
    private static final int REPLICAS = 5;
    private static final String ADMIN_PASSWORD = "restart-it-admin";
    private static final long LOCK_TIME_MS = 10_000;
    private static final Map<String, String> SIM_KEY = Map.of("X-API-Key", "restart-it-key", "X-Phala-Version", "2026-05-22");   // any key passes
    private static final DateTimeFormatter ENGINE_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSZ");

    @Test
    void aNodeKilledMidRolloutResumesTheRolloutWhereItWasAfterARestart() throws Exception {
        try (ProcessHarness harness = new ProcessHarness("SingleNodeRestartIT")) {
            try {
                run(harness);
            } catch (Throwable failure) {
                harness.dumpLogs(80);
                throw failure;
            }
        }
    }

    private void run(ProcessHarness harness) throws Exception {
        Path nodeDir = harness.runDir().resolve("node");
        writeProfile(nodeDir.resolve("config/application-restarttest.yaml"));
        int port = ProcessHarness.freePort();
        Http api = new Http("http://127.0.0.1:" + port, "admin", ADMIN_PASSWORD);
        Http simulator = new Http("http://127.0.0.1:" + port, null, null);
        Journal journal = new Journal(simulator);
        Map<String, String> env = Map.of("ORCHESTRATOR_ADMIN_PASSWORD", ADMIN_PASSWORD);
        List<String> args = List.of("--server.port=" + port, "--server.address=127.0.0.1", "--spring.profiles.active=restarttest",
                "--management.endpoint.health.probes.enabled=true");

        // --- first start: H2 file database and simulator state are created under node/data
        Instant t0 = Instant.now();
        Launched first = harness.start("node-first-run", harness.appJar(), nodeDir, env, args);
        awaitReady(first, api, simulator);
        double firstStart = seconds(t0, Instant.now());
        log(String.format("node up after %.1f s; %d CVMs running", firstStart, REPLICAS));
        String before = composeHash(simulator, SET + "-0");
        long since = journal.lastSeq();

        Instant started = Instant.now();
        HttpResponse<String> created = api.postJson("/api/replica-sets/" + SET + "/rollouts",
                Map.of("dockerCompose", "services:\n  web:\n    image: nginxdemos/hello:restart\n"));
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        String pid = ProcessHarness.JSON.readTree(created.body()).get("processInstanceId").asText();
        log("rollout " + pid + " started");

        // --- kill -9 as soon as the first CVM is updating
        List<Event> beforeKill = await("the rollout reached its first update").atMost(Duration.ofSeconds(180))
                .pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(20)).until(() -> {
                    first.assertAlive();
                    return Journal.ofSet(journal.since(since), SET);
                }, events -> events.stream().anyMatch(Event::startsUpdate));
        first.kill();
        Instant killedAt = Instant.now();
        String updating = beforeKill.stream().filter(Event::startsUpdate).findFirst().orElseThrow().cvm();
        log(String.format("killed the node (SIGKILL) %.1f s into the rollout, while %s was updating",
                seconds(started, killedAt), updating));

        // --- start it again on the same directory
        Instant restart = Instant.now();
        Launched second = harness.start("node-second-run", harness.appJar(), nodeDir, env, args);
        awaitReady(second, api, simulator);
        Instant ready = Instant.now();
        log(String.format("node up again after %.1f s", seconds(restart, ready)));
        String state = awaitEnded(api, second, pid);
        Instant ended = Instant.now();

        List<Event> events = Journal.ofSet(journal.since(since), SET);
        log("simulator journal of the rollout:\n" + Journal.describe(events));
        Instant resumedAt = events.stream().filter(e -> e.startsUpdate() && e.at().isAfter(ready)).map(Event::at).findFirst().orElse(null);
        List<JsonNode> afterRestart = new ArrayList<>();
        for (JsonNode a : api.getJson("/engine-rest/history/activity-instance?maxResults=1000&processInstanceId=" + pid
                + "&sortBy=startTime&sortOrder=asc")) {
            if (OffsetDateTime.parse(a.get("startTime").asText(), ENGINE_TIME).toInstant().isAfter(restart)) {
                afterRestart.add(a);
            }
        }
        Map<String, Integer> updates = Journal.updatesPerCvm(events, SET, REPLICAS);
        Map<String, Integer> disruptions = Journal.disruptionsPerCvm(events, SET, REPLICAS);
        int plans = api.getJson("/engine-rest/history/activity-instance?maxResults=1000&processInstanceId=" + pid + "&activityId=Task_PlanRollout").size();
        int applies = api.getJson("/engine-rest/history/activity-instance?maxResults=1000&processInstanceId=" + pid + "&activityId=Task_ApplyPlannedAction").size();
        int drains = api.getJson("/engine-rest/history/activity-instance?maxResults=1000&processInstanceId=" + pid + "&activityId=CallActivity_DrainInstance").size();
        int rollouts = api.getJson("/engine-rest/history/process-instance/count?processDefinitionKey=rollout").get("count").asInt();

        System.out.println("==== SingleNodeRestartIT measured");
        System.out.printf("  first start %.1f s (new H2 database, app and 5 CVMs); killed %.1f s into the rollout while %s was updating%n",
                firstStart, seconds(started, killedAt), updating);
        System.out.printf("  restart: up again after %.1f s; the next CVM update %s after it was up; rollout %s %.1f s after the restart (%.1f s in all)%n",
                seconds(restart, ready), resumedAt == null ? "-" : String.format("%.1f s", seconds(ready, resumedAt)),
                state, seconds(restart, ended), seconds(started, ended));
        System.out.printf("  first steps after the restart: %s%n", afterRestart.stream().limit(6)
                .map(a -> a.get("activityId").asText()).toList());
        System.out.printf("  plan steps %d, drain steps %d, apply steps %d, rollout instances %d; CVM updates per CVM %s; went down per CVM %s; most down at once %d%n",
                plans, drains, applies, rollouts, updates, disruptions, Journal.maxDown(events));

        assertThat(state).isEqualTo("COMPLETED");
        assertThat(api.getJson("/engine-rest/history/activity-instance?maxResults=1000&processInstanceId=" + pid
                + "&activityId=EndEvent_RolloutCompleted&finished=true")).as("ended at Rollout completed").hasSize(1);
        assertThat(rollouts).as("the same rollout went on; none was started again").isEqualTo(1);
        assertThat(plans).as("planned once: it resumed, it did not start over").isEqualTo(1);
        assertThat(applies).as("one apply step per instance").isEqualTo(REPLICAS);
        assertThat(drains).as("the set has no pre-stop endpoint: its drain, a no-op, is skipped (one apply per instance shows no step ran again)").isZero();
        assertThat(afterRestart).as("nothing before the interrupted slot ran again")
                .noneSatisfy(a -> assertThat(a.get("activityId").asText()).isIn("Task_PlanRollout", "StartEvent_RolloutRequested"));
        assertThat(updates.values()).as("every CVM updated exactly once: " + updates).containsOnly(1);
        assertThat(disruptions.values()).as("every CVM went down exactly once (no restart on top of the update): " + disruptions).containsOnly(1);
        assertThat(Journal.lastStatus(events)).as("none left down").hasSize(REPLICAS)
                .allSatisfy((cvm, status) -> assertThat(status).isEqualTo("running"));
        assertThat(Journal.maxDown(events)).isEqualTo(1);
        for (int ordinal = 0; ordinal < REPLICAS; ordinal++) {
            JsonNode cvm = simulator.getJson("/simulator/api/v1/cvms/" + SET + "-" + ordinal, SIM_KEY);
            assertThat(cvm.get("status").asText()).isEqualTo("running");
            assertThat(cvm.get("compose_hash").asText()).as("on the new compose").isNotEqualTo(before);
        }
    }

    private static void writeProfile(Path file) throws Exception {
        Files.createDirectories(file.getParent());
        Files.writeString(file, """
                # SingleNodeRestartIT: the embedded defaults (H2 file database and simulator state under ./data), short timings
                camunda:
                  bpm:
                    job-execution:
                      # a job locked by the killed JVM waits this long after the restart (the default is 5 minutes)
                      lock-time-in-millis: %d
                      wait-time-in-millis: 100
                      max-wait: 500
                simulator:
                  state-file: ./data/simulator-state.json
                  timings:
                    create-ms: 300
                    start-ms: 300
                    stop-ms: 200
                    shutdown-ms: 200
                    restart-ms: 500
                    update-ms: 2000
                    delete-ms: 200
                orchestrator:
                  phala:
                    initial-backoff: PT0.1S
                    max-backoff: PT0.5S
                  rollout:
                    cvm-poll-interval: PT0.25S
                  observe:
                    enabled: false
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
                        approvals:
                          before-rollout: false
                          between-instances: false
                """.formatted(LOCK_TIME_MS));
    }

    private static void awaitReady(Launched node, Http api, Http simulator) {
        TwoNodeFailoverIT.awaitNodeReady(node, api);
        waitUntil(Duration.ofSeconds(60), REPLICAS + " CVMs running", () -> {
            try {
                for (int ordinal = 0; ordinal < REPLICAS; ordinal++) {
                    HttpResponse<String> cvm = simulator.get("/simulator/api/v1/cvms/" + SET + "-" + ordinal, SIM_KEY);
                    if (cvm.statusCode() != 200 || !"running".equals(ProcessHarness.JSON.readTree(cvm.body()).path("status").asText())) {
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
        return simulator.getJson("/simulator/api/v1/cvms/" + cvm, SIM_KEY).get("compose_hash").asText();
    }

    private static String awaitEnded(Http api, Launched node, String pid) {
        String[] state = new String[1];
        waitUntil(Duration.ofSeconds(240), "rollout " + pid + " to end", () -> {
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

    private static double seconds(Instant from, Instant to) {
        return Duration.between(from, to).toMillis() / 1000.0;
    }
}
