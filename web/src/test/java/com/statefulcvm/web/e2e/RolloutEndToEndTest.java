package com.statefulcvm.web.e2e;

import com.statefulcvm.web.SimulatorView;
import com.statefulcvm.web.RolloutDriver;
import com.statefulcvm.web.E2eSupport;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.statefulcvm.fleet.admission.BootMarker;
import org.camunda.bpm.engine.HistoryService;
import org.camunda.bpm.engine.ManagementService;
import org.camunda.bpm.engine.RuntimeService;
import org.camunda.bpm.engine.runtime.Job;
import org.camunda.bpm.engine.TaskService;
import org.camunda.bpm.engine.task.Task;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.client.TestRestTemplate;
import org.springframework.http.HttpEntity;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The application and its embedded simulator over real HTTP: the REST API starts a rollout, the approval is
 * completed through the engine's REST API, and the simulator's event history tells what happened to each CVM.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.DEFINED_PORT)
@ActiveProfiles("e2e")
class RolloutEndToEndTest {

    private static final String SET = "webdemo";
    private static final ObjectMapper JSON = new ObjectMapper();

    @DynamicPropertySource
    static void port(DynamicPropertyRegistry registry) {
        E2eSupport.onFreePortWithDatabase(registry, "rollout-e2e");
    }

    @Autowired
    TestRestTemplate http;
    @Autowired
    TaskService tasks;
    @Autowired
    HistoryService history;
    @Autowired
    ManagementService management;
    @Autowired
    RuntimeService runtime;

    private RolloutDriver driver() {
        return new RolloutDriver(http, tasks, history, SET);
    }

    private TestRestTemplate admin() {
        return driver().admin();
    }

    private static HttpEntity<Object> json(Object body) {
        return RolloutDriver.json(body);
    }

    @AfterEach
    void healAndClearFaults() {
        for (int ordinal = 0; ordinal < 3; ordinal++) {
            http.postForEntity("/simulator/_admin/cvms/" + SET + "-" + ordinal + "/health", json(Map.of("healthy", true)), String.class);
        }
        http.exchange("/simulator/_admin/faults", HttpMethod.DELETE, null, String.class);
    }

    @Test
    void approvedRolloutUpdatesEveryCvmInDescendingOrderOneAtATime() throws Exception {
        driver().awaitAllRunning(3);
        long since = lastEventSeq();
        String compose = "services:\n  web:\n    image: nginxdemos/hello:0.4\n";

        String pid = driver().startRollout(compose);
        driver().approve(pid);
        driver().awaitEnded(pid, "EndEvent_RolloutCompleted");

        JsonNode set = driver().readSet();
        List<String> hashes = new ArrayList<>();
        set.get("instances").forEach(i -> hashes.add(i.get("composeHash").asText()));
        assertThat(hashes).hasSize(3).doesNotContainNull();
        assertThat(hashes.stream().distinct().count()).as("every CVM on the same new hash").isEqualTo(1);
        assertThat(hashes.get(0)).isEqualTo(cvmComposeHash(SET + "-0"));

        List<JsonNode> events = eventsSince(since);
        assertThat(firstUpdateOrder(events)).containsExactly(SET + "-2", SET + "-1", SET + "-0");
        assertThat(maxUnavailable(events)).as("never two CVMs unavailable at once").isEqualTo(1);
        assertThat(set.get("readyReplicas").asInt()).isEqualTo(3);
    }

    @Test
    void anUnhealthyCvmIsUpdatedFirstAndHaltsTheRolloutWhileTheOthersKeepTheOldHash() throws Exception {
        driver().awaitAllRunning(3);
        String oldHashOfSlot0 = cvmComposeHash(SET + "-0");
        String oldHashOfSlot2 = cvmComposeHash(SET + "-2");
        http.postForEntity("/simulator/_admin/cvms/" + SET + "-1/health", json(Map.of("healthy", false)), String.class);
        long since = lastEventSeq();

        String pid = driver().startRollout("services:\n  web:\n    image: nginxdemos/hello:broken\n");
        driver().approve(pid);
        Task halted = driver().awaitTask(pid, "UserTask_RolloutHalted");
        assertThat(halted.getName()).isEqualTo("Rollout halted at webdemo-1: retry, skip or abort");
        assertThat((String) tasks.getVariable(halted.getId(), "haltReason")).contains("webdemo-1").contains("health");

        // Already unavailable, it is updated first (adding no disruption); the healthy ones wait behind it.
        assertThat(cvmComposeHash(SET + "-0")).as("slot 0 was never touched").isEqualTo(oldHashOfSlot0);
        assertThat(cvmComposeHash(SET + "-2")).as("slot 2 was never touched").isEqualTo(oldHashOfSlot2);
        assertThat(firstUpdateOrder(eventsSince(since))).containsExactly(SET + "-1");

        ResponseEntity<String> refused = driver().completeTask(halted.getId(), Map.of("decision", Map.of("value", "rollback", "type", "String")));
        assertThat(refused.getStatusCode()).isEqualTo(HttpStatus.BAD_REQUEST);
        assertThat(refused.getBody()).contains("decision must be one of retry, skip or abort");

        ResponseEntity<String> aborted = driver().completeTask(halted.getId(), Map.of("decision", Map.of("value", "abort", "type", "String")));
        assertThat(aborted.getStatusCode()).isEqualTo(HttpStatus.NO_CONTENT);
        driver().awaitEnded(pid, "EndEvent_RolloutAborted");
        assertThat(cvmComposeHash(SET + "-0")).isEqualTo(oldHashOfSlot0);
        assertThat(cvmComposeHash(SET + "-2")).isEqualTo(oldHashOfSlot2);
    }

    @Test
    void aSlotThatWentDownAfterThePlanHoldsTheNextTakeDownUntilItRunsAgain() throws Exception {
        driver().awaitAllRunning(3);
        String compose = "services:\n  web:\n    image: nginxdemos/hello:0.6\n";
        // the hold outlasts the set's 6 s deadline; the plan is made now, with every CVM running
        String pid = driver().startRollout(compose, Map.of("progressDeadlineSeconds", 120));
        driver().awaitTask(pid, "UserTask_ApproveRollout");
        // webdemo-0 (updated last) goes down after the plan and before the first take-down; no monitor heals it here
        simulator().stop(SET + "-0");
        await().atMost(Duration.ofSeconds(30)).until(() -> "stopped".equals(simulatorCvm(SET + "-0").get("status").asText()));
        long since = lastEventSeq();
        driver().approve(pid);
        try {
            holdsThenCompletes(pid, since, compose);
        } finally {
            if ("stopped".equals(simulatorCvm(SET + "-0").get("status").asText())) {
                simulator().start(SET + "-0");
            }
            if (runtime.createProcessInstanceQuery().processInstanceId(pid).count() > 0) {
                runtime.deleteProcessInstance(pid, "test over");
            }
        }
    }

    private void holdsThenCompletes(String pid, long since, String compose) throws Exception {
        Job held = await().atMost(Duration.ofSeconds(90)).until(() -> management.createJobQuery().processInstanceId(pid)
                .activityId("Task_ApplyPlannedAction").list().stream()
                .filter(j -> j.getExceptionMessage() != null && j.getExceptionMessage().startsWith("Holding")).findFirst().orElse(null),
                j -> j != null);
        assertThat(held.getExceptionMessage()).startsWith("Holding: Disruption budget of 'webdemo' spent: taking webdemo-2 down "
                + "would leave 1 serving, the budget needs 2").contains("webdemo-0 (CVM status stopped");
        // the step's R5/PT10S, untouched by the hold: a failure would have used one
        assertThat(held.getRetries()).isEqualTo(5);
        assertThat(management.createJobQuery().processInstanceId(pid).withException().list())
                .allSatisfy(j -> assertThat(j.getExceptionMessage()).startsWith("Holding"));
        await().during(Duration.ofSeconds(6)).atMost(Duration.ofSeconds(30)).until(() -> firstUpdateOrder(eventsSince(since)).isEmpty());

        simulator().start(SET + "-0");
        driver().awaitEnded(pid, "EndEvent_RolloutCompleted");
        List<JsonNode> events = eventsSince(since);
        assertThat(firstUpdateOrder(events)).containsExactly(SET + "-2", SET + "-1", SET + "-0");
        for (int ordinal = 0; ordinal < 3; ordinal++) {
            assertThat(simulatorCvm(SET + "-" + ordinal).get("compose_file").get("docker_compose_file").asText()).isEqualTo(compose);
        }
    }

    @Test
    void injected503And409AreRetriedAndTheRolloutStillFinishes() throws Exception {
        driver().awaitAllRunning(3);
        // Reads are retried by the client. A 503 of the compose PATCH is not: it may have reached the service, so the
        // job fails (one answer is no outage: the engine's retry, R5/PT10S), and it reads the CVM back before it sends
        // the compose again (exactly-once). That read-back tells an update that took by a boot after the intent,
        // within BootMarker.TOLERANCE: a CVM the test before updated a moment ago would pass for one (on Phala a boot
        // takes minutes), so the CVMs' boots are first let grow older than that. A 409 (another operation in
        // progress: nothing done) is retried by the client.
        java.time.Instant lastBoot = new SimulatorView(http).lastBoot(SET + "-");
        if (lastBoot != null) {
            java.time.Instant readable = lastBoot.plus(BootMarker.TOLERANCE).plusSeconds(1); // uptime is in whole seconds
            await().atMost(Duration.ofSeconds(10)).until(() -> java.time.Instant.now().isAfter(readable));
        }
        fault("PATCH", "/cvms/*/docker-compose", 503, 1);
        fault("PATCH", "/cvms/*/docker-compose", 409, 1);
        fault("GET", "/cvms/*", 503, 2);
        fault("GET", "/apps/*/cvms", 429, 1);

        String compose = "services:\n  web:\n    image: nginxdemos/hello:0.5\n";
        // the job retry after the PATCH's 503 (10 s) and the wait above: more than the set's 6 s deadline
        String pid = driver().startRollout(compose, Map.of("progressDeadlineSeconds", 60));
        driver().approve(pid);
        driver().awaitEnded(pid, "EndEvent_RolloutCompleted");
        JsonNode pending = JSON.readTree(http.getForObject("/simulator/_admin/faults", String.class));
        assertThat(pending.size()).as("every injected fault was met").isZero();
        for (int ordinal = 0; ordinal < 3; ordinal++) {
            JsonNode cvm = simulatorCvm(SET + "-" + ordinal);
            assertThat(cvm.get("compose_file").get("docker_compose_file").asText()).isEqualTo(compose);
        }
    }

    @Test
    void aComposeLongerThanCamundasStringColumnRollsOutAndIsTheLastGoodOneAfterwards() throws Exception {
        driver().awaitAllRunning(3);
        // inline configuration makes real composes long; Camunda keeps String variables in 4000 characters
        StringBuilder longCompose = new StringBuilder("services:\n  web:\n    image: nginxdemos/hello:0.6\n    environment:\n");
        for (int i = 0; longCompose.length() < 12_000; i++) {
            longCompose.append("      SETTING_").append(i).append(": \"").append("x".repeat(60)).append("\"\n");
        }
        String pid = driver().startRollout(longCompose.toString());
        driver().approve(pid);
        driver().awaitEnded(pid, "EndEvent_RolloutCompleted");
        for (int ordinal = 0; ordinal < 3; ordinal++) {
            assertThat(simulatorCvm(SET + "-" + ordinal).get("compose_file").get("docker_compose_file").asText())
                    .isEqualTo(longCompose.toString());
        }

        // the next rollout carries it as the revision to return to
        String shortCompose = "services:\n  web:\n    image: nginxdemos/hello:0.7\n";
        String next = driver().startRollout(shortCompose);
        driver().approve(next);
        driver().awaitEnded(next, "EndEvent_RolloutCompleted");
        assertThat(history.createHistoricVariableInstanceQuery().processInstanceId(next).variableName("lastGoodCompose")
                .singleResult().getValue()).isEqualTo(longCompose.toString());
        assertThat(simulatorCvm(SET + "-0").get("compose_file").get("docker_compose_file").asText()).isEqualTo(shortCompose);
    }

    // --- helpers -----------------------------------------------------------------------------------------------

    private String cvmComposeHash(String name) throws Exception {
        return simulator().composeHash(name);
    }

    private JsonNode simulatorCvm(String name) throws Exception {
        return simulator().cvm(name);
    }

    private SimulatorView simulator() {
        return new SimulatorView(http);
    }

    /**
     * Issue 18: an app whose KMS is on chain answers 465 to the first update; the rollout waits in Tasklist with the
     * compose hash, the app's contract and the call to make, takes the transaction hash, and commits every CVM with it
     * (one registration per rollout: the contract's allow-list is the app's).
     */
    @Test
    void anOnChainKmsAppsRolloutWaitsInTasklistForTheRegistrationThenCommitsEachCvm() throws Exception {
        driver().awaitAllRunning(3);
        String appId = simulatorCvm(SET + "-0").get("app_id").asText().replaceFirst("^app_", "");
        assertThat(http.postForEntity("/simulator/_admin/apps/" + appId + "/on-chain-kms", json(Map.of("enabled", true)),
                String.class).getStatusCode()).isEqualTo(HttpStatus.OK);
        JsonNode before = JSON.readTree(http.getForObject("/simulator/_admin/requests", String.class));
        long since = before.isEmpty() ? 0 : before.get(before.size() - 1).get("seq").asLong();
        try {
            String compose = "services:\n  web:\n    image: nginxdemos/hello:0.7\n";
            String pid = driver().startRollout(compose);
            driver().approve(pid);

            Task register = driver().awaitTask(pid, "UserTask_RegisterComposeHash");
            Map<String, String> shown = driver().formVariables(register.getId());
            String composeHash = shown.get("onChainComposeHash");
            assertThat(composeHash).matches("^[0-9a-f]{64}$");
            assertThat(shown.get("onChainAppId")).isEqualTo(appId);
            assertThat(shown.get("onChainContract")).isEqualTo("0x" + appId);
            assertThat(shown.get("onChainContractCall")).isEqualTo("addComposeHash(0x" + composeHash + ")");
            assertThat(shown.get("onChainKmsInfo")).contains("8453");
            assertThat(JSON.readTree(http.getForObject("/simulator/_admin/requests?since=" + since, String.class)))
                    .as("no CVM was updated before the registration").noneMatch(r -> r.get("path").asText().endsWith("/commit-update"));

            ResponseEntity<String> refused = driver().completeTask(register.getId(),
                    Map.of("transactionHash", Map.of("value", "0x1234", "type", "String")));
            assertThat(refused.getStatusCode().is2xxSuccessful()).as("a malformed transaction hash").isFalse();
            // a transaction the chain does not know: Phala answers 468 and the task opens again, saying so
            String unmined = "0x" + "68".repeat(32);
            assertThat(driver().completeTask(register.getId(), Map.of("transactionHash", Map.of("value", unmined, "type", "String")))
                    .getStatusCode()).isEqualTo(HttpStatus.NO_CONTENT);
            Task again = driver().awaitTask(pid, "UserTask_RegisterComposeHash");
            assertThat(driver().formVariables(again.getId()).get("onChainRefusal"))
                    .startsWith("Phala answered 468").contains(unmined);
            String transaction = "0x" + "5e".repeat(32);
            assertThat(http.postForEntity("/simulator/_admin/apps/" + appId + "/on-chain-kms/transactions",
                    json(Map.of("composeHash", composeHash, "transactionHash", transaction)), String.class).getStatusCode())
                    .isEqualTo(HttpStatus.OK);
            assertThat(driver().completeTask(again.getId(), Map.of("transactionHash", Map.of("value", transaction, "type", "String")))
                    .getStatusCode()).isEqualTo(HttpStatus.NO_CONTENT);

            driver().awaitEnded(pid, "EndEvent_RolloutCompleted");
            for (int ordinal = 0; ordinal < 3; ordinal++) {
                JsonNode cvm = simulatorCvm(SET + "-" + ordinal);
                assertThat(cvm.get("compose_file").get("docker_compose_file").asText()).isEqualTo(compose);
                assertThat(cvm.get("compose_hash").asText()).isEqualTo(composeHash);
            }
            JsonNode registration = JSON.readTree(driver().admin().getForObject("/api/rollouts/" + pid, String.class)).get("onChainRegistration");
            assertThat(registration.get("transactionHash").asText()).as("the report keeps the transaction it committed with").isEqualTo(transaction);
            assertThat(registration.get("composeHash").asText()).isEqualTo(composeHash);
            assertThat(history.createHistoricTaskInstanceQuery().processInstanceId(pid)
                    .taskDefinitionKey("UserTask_RegisterComposeHash").count())
                    .as("one registration for the rollout, asked again once after the 468").isEqualTo(2);
            List<JsonNode> commits = new java.util.ArrayList<>();
            for (JsonNode r : JSON.readTree(http.getForObject("/simulator/_admin/requests?since=" + since, String.class))) {
                if (r.get("path").asText().endsWith("/commit-update") && r.get("status").asInt() == 202) {
                    commits.add(JSON.readTree(r.get("body").asText()));
                }
            }
            assertThat(commits).as("every CVM committed with the one transaction").hasSize(3)
                    .allSatisfy(c -> {
                        assertThat(c.get("transaction_hash").asText()).isEqualTo(transaction);
                        assertThat(c.get("compose_hash").asText()).isEqualTo(composeHash);
                    });
        } finally {
            http.postForEntity("/simulator/_admin/apps/" + appId + "/on-chain-kms", json(Map.of("enabled", false)), String.class);
        }
    }

    /** With {@code Retry-After: 0}: a longer one than the client's cap (PT0.1S here) would end its attempts at once. */
    private void fault(String method, String pattern, int status, int times) {
        ResponseEntity<String> r = http.postForEntity("/simulator/_admin/faults", json(Map.of("method", method,
                "pathPattern", pattern, "status", status, "times", times, "retryAfterSeconds", 0)), String.class);
        assertThat(r.getStatusCode().is2xxSuccessful()).isTrue();
    }

    private long lastEventSeq() throws Exception {
        return simulator().lastEventSeq();
    }

    private List<JsonNode> eventsSince(long seq) throws Exception {
        return simulator().eventsSince(seq);
    }

    private static List<String> firstUpdateOrder(List<JsonNode> events) {
        return SimulatorView.firstUpdateOrder(events);
    }

    private static int maxUnavailable(List<JsonNode> events) {
        return SimulatorView.maxUnavailable(events);
    }
}
