package com.statefulcvm.web.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.statefulcvm.web.cluster.Journal.Event;
import com.statefulcvm.web.cluster.ProcessHarness.Http;
import com.statefulcvm.web.cluster.ProcessHarness.Launched;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import static com.statefulcvm.web.cluster.ProcessHarness.JSON;
import static com.statefulcvm.web.cluster.ProcessHarness.log;
import static com.statefulcvm.web.cluster.ProcessHarness.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A rehearsal of production: the built jar under the {@code phala} profile (H2, every evidence check as in production,
 * the standalone simulator's test root named as the rehearsal trust anchor), against the standalone simulator jar, on
 * clusters nobody here made. Phala's official SDK makes them as Terraform's provider does ({@code
 * sdk-conformance/make-app.mjs}: provision, commit, one {@code createAppInstance} per member, renamed or left as the
 * service named it), and the fleet file names their apps:
 * <ul>
 *   <li>{@code adopt-db}: CVMs {@code dbnode-a}, {@code dbnode-b} and one named {@code dstack-app-xxxxx} (mapped by its
 *   id), running another compose than the fleet file's. Its adoption is proposed at start-up and only observes: no
 *   procedure starts, no CVM is touched. Approved, its first revision is what runs (not the fleet file's compose); the
 *   monitor then admits all three, and the first approved rollout (four-eyes: another user approves) updates each CVM
 *   once, one at a time.</li>
 *   <li>{@code adopt-bare}: two CVMs named after their slots, one of which runs no guest agent. Its survey says that one
 *   would be refused; an approval that does not accept it as kept running is refused; once accepted, the set is
 *   adopted with that slot refused and running.</li>
 * </ul>
 * Then Terraform's apply of a changed compose (the SDK's {@code updateDockerCompose} on every CVM at once): the set is
 * Drifted, at most the budget's one fenced, and the approver's "adopt as revision" makes what they run the set's revision.
 * The simulator's event journal, nobody's but the simulator's, says no CVM left "running" except through that rollout,
 * that apply and the budget's fence.
 */
class AdoptionRehearsalIT {

    private static final String API_KEY = "phak_adoption_rehearsal";
    private static final String ADMIN_PASSWORD = "adoption-it-admin";
    private static final String APPROVER_PASSWORD = "adoption-it-bob";
    private static final Map<String, String> SIM_KEY = Map.of("X-API-Key", API_KEY, "X-Phala-Version", "2026-01-21");
    private static final String RUNNING = "services:\n  web:\n    image: nginxdemos/hello:0.3\n    ports:\n      - \"8080:80\"\n";
    private static final String FLEET_FILE = "services:\n  web:\n    image: nginxdemos/hello:0.4\n    ports:\n      - \"8080:80\"\n";
    private static final String TERRAFORMS = "services:\n  web:\n    image: nginxdemos/hello:0.5\n    ports:\n      - \"8080:80\"\n";

    @Test
    void clustersMadeByTheSdkAreAdoptedTouchingNothingUntilApprovedThenRolledOutOneAtATime() throws Exception {
        try (ProcessHarness harness = new ProcessHarness("AdoptionRehearsalIT")) {
            try {
                run(harness);
            } catch (Throwable failure) {
                harness.dumpLogs(80);
                throw failure;
            }
        }
    }

    private void run(ProcessHarness harness) throws Exception {
        Path run = harness.runDir();
        int simPort = ProcessHarness.freePort();
        Http simulator = new Http("http://127.0.0.1:" + simPort, null, null);
        Launched sim = harness.start("simulator", harness.simulatorJar(), run.resolve("simulator"), Map.of(), List.of(
                "--server.port=" + simPort, "--server.address=127.0.0.1", "--simulator.api-key=" + API_KEY,
                "--simulator.state-file=", "--simulator.timings.create-ms=200", "--simulator.timings.start-ms=200",
                "--simulator.timings.stop-ms=200", "--simulator.timings.shutdown-ms=200", "--simulator.timings.restart-ms=400",
                "--simulator.timings.update-ms=600", "--simulator.timings.delete-ms=200"));
        waitUntil(Duration.ofMinutes(3), "the simulator to answer", () -> {
            sim.assertAlive();
            return simulator.answers("/simulator/_admin/events");
        });

        // --- the clusters, made by the official SDK as Terraform's provider makes them
        JsonNode db = sdk(simulator, "create", Map.of("name", "dbnode-a", "compose", RUNNING, "members", list("dbnode-b", null)));
        JsonNode bare = sdk(simulator, "create", Map.of("name", "adopt-bare-0", "compose", RUNNING, "members", list("adopt-bare-1")));
        String unnamed = db.get("cvms").get(2).get("name").asText();
        String unnamedId = db.get("cvms").get(2).get("id").asText();
        assertThat(unnamed).as("createAppInstance's own name").startsWith("dstack-app-");
        // adopt-bare-1 runs no guest agent: nothing answers its GetQuote
        assertThat(simulator.postJson("/simulator/_admin/cvms/adopt-bare-1/evidence", Map.of("tamper", "no-agent")).statusCode()).isEqualTo(200);
        Journal journal = new Journal(simulator);
        long made = journal.lastSeq();

        // --- what the fleet file pins, read from the platform as an operator reads it before production
        JsonNode tcb = simulator.getJson("/simulator/api/v1/cvms/" + db.get("cvms").get(0).get("id").asText() + "/attestation", SIM_KEY).get("tcb_info");
        String kmsKey = null;
        for (JsonNode event : tcb.get("event_log")) {
            if ("key-provider".equals(event.get("event").asText())) {
                kmsKey = JSON.readTree(new String(HexFormat.of().parseHex(event.get("event_payload").asText()), StandardCharsets.UTF_8)).get("id").asText();
            }
        }
        Path anchor = run.resolve("conf/sim-root.pem");
        Files.createDirectories(anchor.getParent());
        Files.writeString(anchor, simulator.get("/simulator/_admin/trust-anchor").body());
        writeProfile(run.resolve("conf/application-adoptiontest.yaml"), simPort, anchor, tcb, kmsKey,
                db.get("appId").asText(), unnamedId, bare.get("appId").asText());

        int port = ProcessHarness.freePort();
        Launched node = harness.start("orchestrator", harness.appJar(), run.resolve("orchestrator"),
                Map.of("PHALA_API_KEY", API_KEY, "ORCHESTRATOR_ADMIN_PASSWORD", ADMIN_PASSWORD), List.of(
                        "--server.port=" + port, "--server.address=127.0.0.1",
                        "--spring.profiles.active=phala,adoptiontest",
                        "--spring.config.additional-location=file:" + ProcessHarness.repoDir().resolve("config") + "/,file:" + run.resolve("conf") + "/",
                        "--management.endpoint.health.probes.enabled=true"));
        Http admin = new Http("http://127.0.0.1:" + port, "admin", ADMIN_PASSWORD);
        TwoNodeFailoverIT.awaitNodeReady(node, admin);
        assertThat(node.tail(4000)).as("the rehearsal says so, loudly").contains("REHEARSAL");

        // --- proposed at start-up, observing only
        JsonNode dbTask = awaitTask(admin, "Approve the adoption of adopt-db");
        JsonNode bareTask = awaitTask(admin, "Approve the adoption of adopt-bare");
        String dbReport = variable(admin, dbTask, "adoptionReport");
        log("adopt-db survey:\n" + dbReport);
        assertThat(dbReport).contains("adopt-db-0 <- CVM dbnode-a", "adopt-db-1 <- CVM dbnode-b", "adopt-db-2 <- CVM " + unnamed);
        assertThat(dbReport.split("would be admitted", -1)).as("each of the three would be admitted").hasSize(4);
        assertThat(variable(admin, dbTask, "fleetFileDiff")).as("the fleet file's compose is not what runs").contains("0.4");
        String sequences = variable(admin, dbTask, "adoptionSequences");
        log("adopt-db sequence numbers:\n" + sequences);
        assertThat(sequences).as("each running slot asked, each answer or its absence said").contains("adopt-db-0: ", "adopt-db-1: ", "adopt-db-2: ");
        HttpResponse<String> early = admin.postJson("/api/replica-sets/adopt-db/rollouts", Map.of("dockerCompose", FLEET_FILE));
        assertThat(early.statusCode()).as(early.body()).isEqualTo(409);
        assertThat(early.body()).contains("not adopted yet");
        JsonNode observed = admin.getJson("/api/replica-sets/adopt-db");
        assertThat(condition(observed, "AwaitingAdoption")).as(observed.toString()).isTrue();
        assertThat(observed.get("instances")).extracting(i -> i.get("status").asText()).containsOnly("running");

        // --- adopt-db approved: its first revision is what runs
        complete(admin, dbTask, Map.of("approved", true), 204);
        String dbAdoption = dbTask.get("processInstanceId").asText();
        waitUntil(Duration.ofMinutes(2), "adopt-db's adoption to end", () -> ended(admin, dbAdoption));
        assertThat(passed(admin, dbAdoption, "EndEvent_Adopted")).as("ended adopted").isTrue();
        JsonNode revisions = admin.getJson("/api/replica-sets/adopt-db/revisions");
        assertThat(revisions).hasSize(1);
        assertThat(admin.getJson("/api/replica-sets/adopt-db/revisions/" + revisions.get(0).get("number").asInt())
                .get("dockerCompose").asText()).isEqualTo(RUNNING);
        waitUntil(Duration.ofMinutes(2), "the monitor to admit the three CVMs of adopt-db", () -> attested(admin, "adopt-db") == 3);
        assertThat(condition(admin.getJson("/api/replica-sets/adopt-db"), "AwaitingAdoption")).isFalse();

        // --- adopt-bare: the CVM without a guest agent is accepted only as kept running, unadmitted
        String bareReport = variable(admin, bareTask, "adoptionReport");
        log("adopt-bare survey:\n" + bareReport);
        assertThat(bareReport).contains("adopt-bare-1 <- CVM adopt-bare-1").contains("would be REFUSED: EVIDENCE_UNAVAILABLE");
        HttpResponse<String> unaccepted = complete(admin, bareTask, Map.of("approved", true), -1);
        assertThat(unaccepted.statusCode()).as(unaccepted.body()).isBetween(400, 499);
        assertThat(unaccepted.body()).contains("acceptRefused");
        complete(admin, bareTask, Map.of("approved", true, "acceptRefused", true), 204);
        String bareAdoption = bareTask.get("processInstanceId").asText();
        waitUntil(Duration.ofMinutes(2), "adopt-bare's adoption to end", () -> ended(admin, bareAdoption));
        waitUntil(Duration.ofMinutes(2), "adopt-bare-0 admitted, adopt-bare-1 refused and running", () -> {
            JsonNode set = getJson(admin, "/api/replica-sets/adopt-bare");
            return set != null && attested(set) == 1 && condition(set, "AttestationRefused")
                    && set.get("instances").get(1).get("status").asText().equals("running");
        });

        long beforeRollout = journal.lastSeq();
        assertThat(leftRunning(journal.since(made))).as("nothing was stopped, restarted or updated by adopting").isEmpty();

        // --- the first approved rollout through the orchestrator: the fleet file's compose, one CVM at a time
        HttpResponse<String> rollout = admin.postJson("/api/replica-sets/adopt-db/rollouts", Map.of("dockerCompose", FLEET_FILE));
        assertThat(rollout.statusCode()).as(rollout.body()).isEqualTo(201);
        String rolloutId = JSON.readTree(rollout.body()).get("processInstanceId").asText();
        Http bob = approver(admin);
        JsonNode approval = awaitTask(admin, "Approve rollout of adopt-db");
        assertThat(complete(admin, approval, Map.of("approved", true), -1).statusCode()).as("four-eyes: not the requester").isEqualTo(403);
        complete(bob, approval, Map.of("approved", true), 204);
        waitUntil(Duration.ofMinutes(4), "the rollout to end", () -> ended(admin, rolloutId));
        assertThat(passed(admin, rolloutId, "EndEvent_RolloutCompleted")).as("rollout completed").isTrue();
        List<Event> rolled = journal.since(beforeRollout);
        Map<String, Integer> updates = new TreeMap<>();
        for (Event e : rolled) {
            if (e.startsUpdate()) {
                updates.merge(e.cvm(), 1, Integer::sum);
            }
        }
        assertThat(updates).as("each CVM, under its own name, updated once").isEqualTo(Map.of("dbnode-a", 1, "dbnode-b", 1, unnamed, 1));
        assertThat(mostDownAtOnce(rolled)).as("one at a time (maxUnavailable 1)").isEqualTo(1);
        assertThat(leftRunning(rolled).keySet()).as("adopt-bare untouched").doesNotContain("adopt-bare-0", "adopt-bare-1");

        // --- terraform apply of a changed docker_compose: the SDK's updateDockerCompose on every CVM at once
        long beforeDrift = journal.lastSeq();
        List<String> ids = new ArrayList<>();
        db.get("cvms").forEach(cvm -> ids.add(cvm.get("id").asText()));
        sdk(simulator, "update-compose", Map.of("cvms", ids, "compose", TERRAFORMS));
        JsonNode[] drifted = new JsonNode[1];
        waitUntil(Duration.ofMinutes(2), "adopt-db Drifted, each of its CVMs fenced or refused", () -> {
            drifted[0] = getJson(admin, "/api/replica-sets/adopt-db");
            return drifted[0] != null && count(drifted[0], "fenced") + count(drifted[0], "refused") == 3 && condition(drifted[0], "Drifted");
        });
        long fencedAtFirst = count(drifted[0], "fenced");
        log("adopt-db after terraform's apply: " + drifted[0]);
        assertThat(fencedAtFirst).as("fenced: at most the budget's one").isLessThanOrEqualTo(1);
        for (JsonNode instance : drifted[0].get("instances")) {
            if (instance.hasNonNull("refused")) {
                assertThat(instance.get("drift").asText()).contains("-    image: nginxdemos/hello:0.4").contains("+    image: nginxdemos/hello:0.5");
            }
        }
        JsonNode decision = awaitTask(admin, "Decide on the instances of adopt-db refused beyond the budget");
        complete(bob, decision, Map.of("decision", "adopt"), 204);
        waitUntil(Duration.ofMinutes(2), "the drifted compose adopted, none refused", () -> {
            JsonNode set = getJson(admin, "/api/replica-sets/adopt-db");
            return set != null && count(set, "refused") == 0 && !condition(set, "Drifted");
        });
        JsonNode afterAdopt = admin.getJson("/api/replica-sets/adopt-db");
        assertThat(admin.getJson("/api/replica-sets/adopt-db/revisions/" + afterAdopt.get("currentRevision").asInt())
                .get("dockerCompose").asText()).as("the compose Terraform applied is the set's revision").isEqualTo(TERRAFORMS);
        for (JsonNode instance : afterAdopt.get("instances")) {
            if (instance.hasNonNull("fenced")) {
                HttpResponse<String> readmit = admin.postJson("/api/replica-sets/adopt-db/instances/" + instance.get("ordinal").asInt()
                        + "/readmit", Map.of("reason", "its compose is the set's revision now"));
                assertThat(readmit.statusCode()).as(readmit.body()).isEqualTo(201);
            }
        }
        waitUntil(Duration.ofMinutes(2), "the three CVMs of adopt-db admitted again", () -> attested(admin, "adopt-db") == 3);
        List<Event> afterApply = journal.since(beforeDrift);
        Map<String, Integer> applied = new TreeMap<>();
        afterApply.stream().filter(Event::startsUpdate).forEach(e -> applied.merge(e.cvm(), 1, Integer::sum));
        assertThat(applied).as("terraform's apply updated each once, the orchestrator none").isEqualTo(Map.of("dbnode-a", 1, "dbnode-b", 1, unnamed, 1));
        int tookDown = leftRunning(afterApply).values().stream().mapToInt(Integer::intValue).sum() - 3;
        assertThat(tookDown).as("the orchestrator stopped only what the budget allowed").isEqualTo((int) fencedAtFirst);
    }

    private static long count(JsonNode set, String field) {
        long n = 0;
        for (JsonNode instance : set.get("instances")) {
            n += instance.hasNonNull(field) ? 1 : 0;
        }
        return n;
    }

    /** Runs sdk-conformance/make-app.mjs (the official SDK) against the simulator; answers its JSON. */
    private static JsonNode sdk(Http simulator, String command, Map<String, Object> input) throws Exception {
        Path script = ProcessHarness.repoDir().resolve("sdk-conformance/make-app.mjs");
        ProcessBuilder builder = new ProcessBuilder("node", script.toString(), command, JSON.writeValueAsString(input))
                .redirectErrorStream(true);
        builder.environment().put("SIMULATOR_URL", simulator.base());
        builder.environment().put("SIMULATOR_API_KEY", API_KEY);
        Process process = builder.start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(2, TimeUnit.MINUTES)).as("make-app.mjs ended").isTrue();
        assertThat(process.exitValue()).as("make-app.mjs " + command + " (needs npm ci --prefix sdk-conformance):\n" + out).isZero();
        String[] lines = out.strip().split("\n");
        return JSON.readTree(lines[lines.length - 1]);
    }

    private static List<Object> list(Object... items) {
        List<Object> out = new ArrayList<>();
        for (Object item : items) {
            out.add(item);
        }
        return out;
    }

    private static JsonNode awaitTask(Http api, String name) {
        JsonNode[] found = new JsonNode[1];
        try {
            waitUntil(Duration.ofMinutes(2), "the task '" + name + "'", () -> {
            JsonNode tasks = getJson(api, "/engine-rest/task?maxResults=10&name=" + java.net.URLEncoder.encode(name, StandardCharsets.UTF_8).replace("+", "%20"));
            if (tasks == null || tasks.isEmpty()) {
                return false;
            }
            found[0] = tasks.get(0);
            return true;
            });
        } catch (RuntimeException notThere) {
            for (String path : List.of("/engine-rest/task?maxResults=20", "/engine-rest/job?maxResults=20", "/engine-rest/incident?maxResults=20", "/engine-rest/process-instance?maxResults=20")) {
                try {
                    HttpResponse<String> answer = api.get(path);
                    log(path + ": " + answer.statusCode() + " " + answer.body());
                } catch (Exception e) {
                    log(path + ": " + e);
                }
            }
            throw notThere;
        }
        return found[0];
    }

    private static String variable(Http api, JsonNode task, String name) throws Exception {
        JsonNode value = api.getJson("/engine-rest/task/" + task.get("id").asText() + "/variables/" + name).get("value");
        return value.isTextual() ? value.asText() : value.toString();
    }

    /** Completes the task as the given user; {@code expect} -1 takes any answer. */
    private static HttpResponse<String> complete(Http api, JsonNode task, Map<String, Object> values, int expect) throws Exception {
        Map<String, Object> variables = new java.util.LinkedHashMap<>();
        values.forEach((k, v) -> variables.put(k, Map.of("value", v)));
        HttpResponse<String> answer = api.postJson("/engine-rest/task/" + task.get("id").asText() + "/complete", Map.of("variables", variables));
        if (expect > 0) {
            assertThat(answer.statusCode()).as(answer.body()).isEqualTo(expect);
        }
        return answer;
    }

    /** bob, in approvers: the rollout's requester (admin) may not approve it. */
    private static Http approver(Http admin) throws Exception {
        HttpResponse<String> created = admin.postJson("/engine-rest/user/create", Map.of(
                "profile", Map.of("id", "bob", "firstName", "Bob", "lastName", "Approver", "email", "bob@example.com"),
                "credentials", Map.of("password", APPROVER_PASSWORD)));
        assertThat(created.statusCode()).as(created.body()).isEqualTo(204);
        HttpResponse<String> member = admin.put("/engine-rest/group/approvers/members/bob");
        assertThat(member.statusCode()).as(member.body()).isEqualTo(204);
        return new Http(admin.base(), "bob", APPROVER_PASSWORD);
    }

    private static boolean ended(Http api, String processInstanceId) {
        JsonNode procedure = getJson(api, "/engine-rest/history/process-instance/" + processInstanceId);
        return procedure != null && !procedure.get("endTime").isNull();
    }

    private static boolean passed(Http api, String processInstanceId, String activityId) throws Exception {
        return !api.getJson("/engine-rest/history/activity-instance?maxResults=1&processInstanceId=" + processInstanceId
                + "&activityId=" + activityId).isEmpty();
    }

    private static int attested(Http api, String set) {
        JsonNode view = getJson(api, "/api/replica-sets/" + set);
        return view == null ? 0 : attested(view);
    }

    private static int attested(JsonNode set) {
        int n = 0;
        for (JsonNode instance : set.get("instances")) {
            n += instance.path("attested").asBoolean(false) ? 1 : 0;
        }
        return n;
    }

    private static boolean condition(JsonNode set, String type) {
        for (JsonNode c : set.get("conditions")) {
            if (type.equals(c.get("type").asText())) {
                return c.get("status").asBoolean();
            }
        }
        return false;
    }

    private static JsonNode getJson(Http api, String path) {
        try {
            return api.getJson(path);
        } catch (Exception notNow) {
            return null;
        }
    }

    /** How often each CVM left "running", by its own name. */
    private static Map<String, Integer> leftRunning(List<Event> events) {
        Map<String, Integer> out = new TreeMap<>();
        for (Event e : events) {
            if ("running".equals(e.from()) && !"running".equals(e.to())) {
                out.merge(e.cvm(), 1, Integer::sum);
            }
        }
        return out;
    }

    /** The most CVMs that were out of "running" at the same moment. */
    private static int mostDownAtOnce(List<Event> events) {
        Map<String, Boolean> down = new TreeMap<>();
        int most = 0;
        for (Event e : events) {
            down.put(e.cvm(), !"running".equals(e.to()));
            most = Math.max(most, (int) down.values().stream().filter(d -> d).count());
        }
        return most;
    }

    /** The test's profile, after the repository's phala profile: the standalone simulator, the fleet, the pins. */
    private static void writeProfile(Path file, int simPort, Path anchor, JsonNode tcb, String kmsKey, String dbApp,
                                     String unnamedId, String bareApp) throws Exception {
        String sim = "http://127.0.0.1:" + simPort;
        String pins = """
                        attestation:
                          kms-key-ids: ['%s']
                          platforms:
                            - name: the standalone simulator's platform
                              mrtd: '%s'
                              rtmr0: '%s'
                              rtmr1: '%s'
                              rtmr2: '%s'
                        health-check:
                          http: { port: 8080, path: /health, expect-status: 200 }
                          interval-seconds: 1
                          timeout-seconds: 1
                          healthy-threshold: 1
                          unhealthy-threshold: 2
                        update-policy:
                          max-unavailable: 1
                          min-ready-seconds: 0
                          progress-deadline-seconds: 120
                        approvals:
                          before-rollout: true
                          between-instances: false
                """.formatted(kmsKey, tcb.get("mrtd").asText(), tcb.get("rtmr0").asText(), tcb.get("rtmr1").asText(),
                tcb.get("rtmr2").asText());
        Files.writeString(file, """
                # AdoptionRehearsalIT: the phala profile against the standalone simulator on %1$s
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
                    interval: PT1S
                  attestation:
                    pccs-url: %1$s/simulator/pccs
                    rehearsal-trust-anchor: %2$s
                  fleet:
                    replica-sets:
                      - name: adopt-db
                        app-id: '%3$s'
                        replicas: 3
                        workload-type: generic
                        members: [dbnode-a, dbnode-b, '%4$s']
                        docker-compose: |
                %6$s
                %7$s
                      - name: adopt-bare
                        app-id: '%5$s'
                        replicas: 2
                        workload-type: generic
                        docker-compose: |
                %8$s
                %7$s
                """.formatted(sim, anchor, dbApp, unnamedId, bareApp, indent(FLEET_FILE), pins, indent(RUNNING)));
    }

    private static String indent(String compose) {
        return compose.lines().map(l -> "              " + l).reduce((a, b) -> a + "\n" + b).orElse("");
    }
}
