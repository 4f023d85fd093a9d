package com.statefulcvm.web.api;

import com.statefulcvm.web.e2e.WorkloadRollouts;
import com.statefulcvm.web.SimulatorView;
import com.statefulcvm.web.RolloutDriver;
import com.statefulcvm.web.E2eSupport;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.statefulcvm.delegates.procedure.LightsOutVariables;
import com.statefulcvm.fleet.admission.Fence;
import com.statefulcvm.fleet.FencePolicy;
import com.statefulcvm.fleet.admission.FenceRegistry;
import com.sun.net.httpserver.HttpServer;
import org.camunda.bpm.engine.HistoryService;
import org.camunda.bpm.engine.RuntimeService;
import org.camunda.bpm.engine.TaskService;
import org.camunda.bpm.engine.history.HistoricProcessInstance;
import org.camunda.bpm.engine.task.Task;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.client.TestRestTemplate;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code POST /api/replica-sets/{name}/lights-out-recovery} around the procedure, on the simulator's own CVMs (a generic
 * set) whose port 9000 reaches a small HTTP server per member through the gateway: the compose's sequence endpoint.
 * Shown: the refusals; every CVM stopped, then started again and asked; the operator's form shows every number and the
 * proposed seed; a seed that is not a slot is refused; an override is seeded first and the others follow it; a replica
 * that answers something that is not an integer is reported as unanswered, never given a number.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.DEFINED_PORT)
@ActiveProfiles({"e2e", "lights-out-api"})
class LightsOutApiTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SET = "lodemo";
    /** What each member's sequence endpoint answers, by slot. */
    private static final Map<String, String> ANSWERS = new ConcurrentHashMap<>();
    private static final List<HttpServer> SERVERS = new ArrayList<>();

    /** A set with a health monitor, beside lodemo (which has none). */
    private static final String HEALED = "lohealed";

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        E2eSupport.onFreePortWithDatabase(registry, "lights-out-api-test");
        for (String set : List.of(SET, HEALED)) {
            for (int ordinal = 0; ordinal < 3; ordinal++) {
                String slot = set + "-" + ordinal;
                int port = sequenceEndpoint(slot);
                registry.add("simulator.backends." + slot + ".ports.9000", () -> port);
            }
        }
    }

    private static int sequenceEndpoint(String slot) {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            server.createContext("/sequence", exchange -> {
                byte[] body = ANSWERS.getOrDefault(slot, "").getBytes(StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(200, body.length);
                exchange.getResponseBody().write(body);
                exchange.close();
            });
            server.start();
            SERVERS.add(server);
            return server.getAddress().getPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @AfterAll
    static void stopServers() {
        SERVERS.forEach(s -> s.stop(0));
    }

    @Autowired
    TestRestTemplate http;
    @Autowired
    RuntimeService runtime;
    @Autowired
    HistoryService history;
    @Autowired
    TaskService tasks;
    @Autowired
    FenceRegistry fences;
    @Autowired
    com.statefulcvm.fleet.budget.OutageRegistry outages;

    private RolloutDriver driver;
    private SimulatorView simulator;

    @BeforeEach
    void drivers() {
        driver = new RolloutDriver(http, tasks, history, SET);
        simulator = new SimulatorView(http);
    }

    @AfterEach
    void deleteRunning() {
        E2eSupport.deleteRunning(runtime, LightsOutVariables.PROCESS_KEY);
    }

    /**
     * Issue 20: an outage meets a running health monitor. Every CVM of lohealed crashes at once: more slots down than
     * its disruption budget tolerates (3 of 3, generic: one must serve). No heal starts (without the outage guard the
     * monitor heals the lowest ordinal within about 2 s); the set shows an Outage condition; a heal, a rollout and a
     * scale are refused with 409; the monitor proposes a lights-out recovery whose seed decision, with the
     * sequence numbers, waits in Tasklist although the set's lights-out.approval is false. Approved, the set is
     * recovered from the largest number, the outage ends, and a later single crash is healed again.
     */
    @Test
    void anOutageIsRecoveredAsAWholeWhileHealingIsOnNeverHealedOneSlotAtATime() throws Exception {
        RolloutDriver healed = new RolloutDriver(http, tasks, history, HEALED);
        healed.awaitAllRunning(3);
        await().atMost(Duration.ofSeconds(60)).until(() -> allHealthy(healed));
        ANSWERS.putAll(Map.of(HEALED + "-0", "7", HEALED + "-1", "5", HEALED + "-2", "9"));
        java.util.Date crashed = new java.util.Date();
        for (int ordinal = 0; ordinal < 3; ordinal++) {
            assertThat(http.postForEntity("/simulator/_admin/cvms/" + HEALED + "-" + ordinal + "/crash", null, String.class)
                    .getStatusCode().is2xxSuccessful()).isTrue();
        }

        JsonNode outage = await().atMost(Duration.ofSeconds(30)).until(() -> healed.readSet().path("conditions").path(0),
                c -> "Outage".equals(c.path("type").asText()));
        System.out.println("lohealed after every CVM crashed: " + outage.path("reason").asText());
        assertThat(outage.path("reason").asText()).contains("3 of 3 slots down").contains("quorum 1 of 3, tolerates 2 down");
        String pid = await().atMost(Duration.ofSeconds(30)).until(() -> runtime.createProcessInstanceQuery()
                .processDefinitionKey(LightsOutVariables.PROCESS_KEY).processInstanceBusinessKey(HEALED).list().stream()
                .map(p -> p.getId()).findFirst().orElse(null), id -> id != null);
        assertThat(runtime.getVariable(pid, "lightsOutTrigger")).isEqualTo("outage");
        Task decision = healed.awaitTask(pid, "UserTask_ApproveSeed");
        assertThat((String) runtime.getVariable(pid, "sequenceReport")).isEqualTo(
                "lohealed-0: 7 (GET /sequence on port 9000)\n"
                + "lohealed-1: 5 (GET /sequence on port 9000)\n"
                + "lohealed-2: 9 (GET /sequence on port 9000) <- largest: the seed");
        assertThat(history.createHistoricProcessInstanceQuery().processDefinitionKey("heal").startedAfter(crashed).list())
                .as("no heal of one slot in an outage").isEmpty();
        for (String refused : List.of("/instances/0/heal", "/scale", "/rollouts")) {
            Object body = refused.equals("/scale") ? Map.of("replicas", 4)
                    : refused.equals("/rollouts") ? Map.of("dockerCompose", "services:\n  kv:\n    image: example/kv:2\n") : Map.of();
            ResponseEntity<String> answer = healed.admin().postForEntity("/api/replica-sets/" + HEALED + refused,
                    RolloutDriver.json(body), String.class);
            assertThat(answer.getStatusCode()).as(refused + ": " + answer.getBody()).isEqualTo(HttpStatus.CONFLICT);
            assertThat(answer.getBody()).as(refused).contains("is in an outage");
        }

        assertThat(healed.completeTask(decision.getId(), Map.of("approved", Map.of("value", true, "type", "Boolean")))
                .getStatusCode()).isEqualTo(HttpStatus.NO_CONTENT);
        HistoricProcessInstance ended = new WorkloadRollouts(history, http).awaitEnded(pid, Duration.ofSeconds(120));
        assertThat(ended.getEndActivityId()).isEqualTo("EndEvent_Done");
        assertThat(history.createHistoricVariableInstanceQuery().processInstanceId(pid).variableName("seed").singleResult()
                .getValue()).isEqualTo("lohealed-2");
        // over once the monitor says so: its round that ends the outage also re-attests the restarted instances, and a
        // crash during one of those re-attestations would fence the instance rather than let it be healed
        await().atMost(Duration.ofSeconds(60)).until(() -> healed.readSet().path("conditions").isEmpty() && allHealthy(healed)
                && outages.outage(HEALED).isEmpty() && runtime.createProcessInstanceQuery().processDefinitionKey("admit-instance")
                .processInstanceBusinessKeyLike(HEALED + "/%").count() == 0);
        assertThat(history.createHistoricProcessInstanceQuery().processDefinitionKey("heal").startedAfter(crashed).list())
                .as("no heal during the outage").isEmpty();

        // over: one crash is a failure again, healed as one
        java.util.Date single = new java.util.Date();
        http.postForEntity("/simulator/_admin/cvms/" + HEALED + "-1/crash", null, String.class);
        await().atMost(Duration.ofSeconds(30)).until(() -> history.createHistoricProcessInstanceQuery()
                .processDefinitionKey("heal").processInstanceBusinessKey(HEALED + "/1").startedAfter(single).count() > 0);
    }

    private static boolean allHealthy(RolloutDriver driver) throws Exception {
        JsonNode set = driver.readSet();
        int healthy = 0;
        for (JsonNode i : set.path("instances")) {
            healthy += "running".equals(i.path("status").asText()) && i.path("healthy").asBoolean(false) ? 1 : 0;
        }
        return healthy == 3;
    }

    private ResponseEntity<String> start(String set, Object body) {
        return driver.admin().postForEntity("/api/replica-sets/" + set + "/lights-out-recovery",
                body == null ? null : RolloutDriver.json(body), String.class);
    }

    /**
     * Every CVM of lodemo running, whatever an earlier test left: a rejected recovery leaves a fenced slot stopped, and
     * lodemo has no monitor to heal it.
     */
    private void everyCvmRunning() throws Exception {
        for (int ordinal = 0; ordinal < 3; ordinal++) {
            if ("stopped".equals(simulator.cvm(SET + "-" + ordinal).path("status").asText())) {
                simulator.start(SET + "-" + ordinal);
            }
        }
        driver.awaitAllRunning(3);
    }

    private void everyCvmStopped() throws Exception {
        everyCvmRunning();
        for (int ordinal = 0; ordinal < 3; ordinal++) {
            simulator.stop(SET + "-" + ordinal);
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            for (int ordinal = 0; ordinal < 3; ordinal++) {
                if (!"stopped".equals(simulator.cvm(SET + "-" + ordinal).path("status").asText())) {
                    return false;
                }
            }
            return true;
        });
    }


    @Test
    void refusals() throws Exception {
        assertThat(start("nosuchset", null).getStatusCode()).isEqualTo(HttpStatus.NOT_FOUND);
        ResponseEntity<String> unknownField = start(SET, Map.of("replicas", 3));
        assertThat(unknownField.getStatusCode()).isEqualTo(HttpStatus.BAD_REQUEST);
        assertThat(JSON.readTree(unknownField.getBody()).get("message").asText()).contains("replicas");
        ResponseEntity<String> badReason = start(SET, Map.of("reason", 5));
        assertThat(badReason.getStatusCode()).isEqualTo(HttpStatus.BAD_REQUEST);
        assertThat(JSON.readTree(badReason.getBody()).get("message").asText()).isEqualTo("reason: must be a string");
        assertThat(http.postForEntity("/api/replica-sets/" + SET + "/lights-out-recovery", null, String.class).getStatusCode())
                .isEqualTo(HttpStatus.UNAUTHORIZED);
        assertThat(JSON.readTree(start(SET, Map.of("overrideNoOutage", "yes")).getBody()).get("message").asText())
                .isEqualTo("overrideNoOutage: must be true or false");
    }

    /** A healthy set is recovered only on purpose: the override and a reason, or nothing starts. */
    @Test
    void aSetInNoOutageIsRecoveredOnlyWithTheOverrideAndAReason() throws Exception {
        everyCvmRunning();
        long before = history.createHistoricProcessInstanceQuery().processDefinitionKey("lights-out-recovery").count();
        ResponseEntity<String> plain = start(SET, Map.of("reason", "just to see"));
        assertThat(plain.getStatusCode()).as(plain.getBody()).isEqualTo(HttpStatus.CONFLICT);
        assertThat(JSON.readTree(plain.getBody()).get("message").asText()).contains("is not in an outage").contains("overrideNoOutage: true and a reason");
        ResponseEntity<String> noReason = start(SET, Map.of("overrideNoOutage", true));
        assertThat(noReason.getStatusCode()).as(noReason.getBody()).isEqualTo(HttpStatus.CONFLICT);
        assertThat(history.createHistoricProcessInstanceQuery().processDefinitionKey("lights-out-recovery").count())
                .as("nothing started").isEqualTo(before);
    }

    @Test
    void anOperatorsOverrideSeedsFirstAndAReplicaWithoutANumberIsReportedNotGuessed() throws Exception {
        everyCvmStopped();
        ANSWERS.putAll(Map.of(SET + "-0", "100", SET + "-1", "300\n", SET + "-2", "200"));
        ResponseEntity<String> started = start(SET, Map.of("reason", "region outage"));
        assertThat(started.getStatusCode()).as(started.getBody()).isEqualTo(HttpStatus.CREATED);
        String pid = JSON.readTree(started.getBody()).get("processInstanceId").asText();
        ResponseEntity<String> again = start(SET, null);
        assertThat(again.getStatusCode()).isEqualTo(HttpStatus.CONFLICT);
        assertThat(JSON.readTree(again.getBody()).get("message").asText()).contains("a lights-out recovery of replica set 'lodemo' is already running");

        Task approval = driver.awaitTask(pid, "UserTask_ApproveSeed");
        assertThat(approval.getName()).isEqualTo("Approve or override the seed of lodemo after a lights-out");
        String report = (String) runtime.getVariable(pid, "sequenceReport");
        assertThat(report).isEqualTo("lodemo-0: 100 (GET /sequence on port 9000)\n"
                + "lodemo-1: 300 (GET /sequence on port 9000) <- largest: the seed\n"
                + "lodemo-2: 200 (GET /sequence on port 9000)");
        assertThat(runtime.getVariable(pid, "chosenSeed")).isEqualTo("lodemo-1");

        ResponseEntity<String> notASlot = driver.completeTask(approval.getId(), Map.of(
                "approved", Map.of("value", true, "type", "Boolean"), "seed", Map.of("value", "lodemo-7", "type", "String")));
        assertThat(notASlot.getStatusCode().is4xxClientError() || notASlot.getStatusCode().is5xxServerError()).isTrue();
        assertThat(notASlot.getBody()).contains("seed must be one of lodemo-0, lodemo-1, lodemo-2");
        ResponseEntity<String> override = driver.completeTask(approval.getId(), Map.of(
                "approved", Map.of("value", true, "type", "Boolean"), "seed", Map.of("value", "lodemo-2", "type", "String")));
        assertThat(override.getStatusCode()).as(override.getBody()).isEqualTo(HttpStatus.NO_CONTENT);
        HistoricProcessInstance ended = new WorkloadRollouts(history, http).awaitEnded(pid, Duration.ofSeconds(120));
        assertThat(ended.getEndActivityId()).isEqualTo("EndEvent_Done");
        assertThat(history.createHistoricVariableInstanceQuery().processInstanceId(pid).variableName("seed").singleResult().getValue())
                .isEqualTo("lodemo-2");
        assertThat(history.createHistoricVariableInstanceQuery().processInstanceId(pid).variableName("outcome").singleResult().getValue())
                .asString().startsWith("lights-out recovery of lodemo: seeded from lodemo-2 (chosen by the operator instead of lodemo-1), "
                        + "every other replica joined");
        // the seed was attested before any follower
        List<String> attested = history.createHistoricProcessInstanceQuery().superProcessInstanceId(pid)
                .processDefinitionKey("attest-instance").orderByProcessInstanceStartTime().asc().list().stream()
                .map(p -> (String) history.createHistoricVariableInstanceQuery().processInstanceId(p.getId()).variableName("slot")
                        .singleResult().getValue()).toList();
        assertThat(attested).containsExactly("lodemo-2", "lodemo-0", "lodemo-1");
        driver.awaitAllRunning(3);
        // the audit trail: the recovery's own report and the set's list of procedures
        JsonNode recovery = JSON.readTree(driver.admin().getForObject("/api/lights-out-recoveries/" + pid, String.class));
        assertThat(recovery.get("kind").asText()).isEqualTo("lights-out-recovery");
        assertThat(recovery.get("state").asText()).isEqualTo("completed");
        assertThat(recovery.get("seed").asText()).isEqualTo("lodemo-2");
        assertThat(recovery.get("chosenSeed").asText()).isEqualTo("lodemo-1");
        assertThat(recovery.get("reason").asText()).endsWith("region outage");
        assertThat(recovery.get("outcome").asText()).contains("seeded from lodemo-2");
        // each repeated step named after its own slot, not the last value of the loop's variable
        List<String> asked = new java.util.ArrayList<>();
        recovery.get("steps").forEach(s -> {
            if (s.get("activityId").asText().equals("CallActivity_Sequence")) {
                asked.add(s.get("step").asText());
            }
        });
        assertThat(asked).as(recovery.get("steps").toString()).containsExactlyInAnyOrder("Ask lodemo-0 for its sequence number (sequence-generic)",
                "Ask lodemo-1 for its sequence number (sequence-generic)", "Ask lodemo-2 for its sequence number (sequence-generic)");
        JsonNode listed = JSON.readTree(driver.admin().getForObject("/api/replica-sets/" + SET + "/procedures?kind=lights-out-recovery", String.class));
        assertThat(listed.get("procedures").get(0).get("report").asText()).isEqualTo("/api/lights-out-recoveries/" + pid);

        everyCvmStopped();
        ANSWERS.put(SET + "-1", "n/a");
        // issue 20: a fenced slot is left alone (not started, asked, seeded or joined) without the operator's override
        fences.save(new Fence(SET, 0, null, FencePolicy.STOP, "QUOTE_INVALID: a test's fence", java.time.Instant.now(), "the test"));
        String second = JSON.readTree(start(SET, null).getBody()).get("processInstanceId").asText();
        Task decision = driver.awaitTask(second, "UserTask_ApproveSeed");
        assertThat((String) runtime.getVariable(second, "sequenceReport")).contains("lodemo-1: NO ANSWER: ")
                .contains("answered 'n/a', not a non-negative integer").contains("lodemo-2: 200 (GET /sequence on port 9000) <- largest: the seed")
                .contains("lodemo-0: FENCED, not started: fenced (stopped): attestation failed: QUOTE_INVALID: a test's fence");
        @SuppressWarnings("unchecked")
        Map<String, Object> numbers = (Map<String, Object>) runtime.getVariable(second, "sequenceNumbers");
        assertThat(numbers).containsOnlyKeys("lodemo-2");
        assertThat(simulator.cvm(SET + "-0").path("status").asText()).as("the fenced CVM was not started").isEqualTo("stopped");
        ResponseEntity<String> fencedSeed = driver.completeTask(decision.getId(), Map.of(
                "approved", Map.of("value", true, "type", "Boolean"), "seed", Map.of("value", "lodemo-0", "type", "String")));
        assertThat(fencedSeed.getBody()).as("a fenced seed is refused").contains("seed lodemo-0 is fenced");
        fences.lift(SET, 0);
        ResponseEntity<String> rejected = driver.completeTask(driver.awaitTask(second, "UserTask_ApproveSeed").getId(),
                Map.of("approved", Map.of("value", false, "type", "Boolean")));
        assertThat(rejected.getStatusCode()).isEqualTo(HttpStatus.NO_CONTENT);
        HistoricProcessInstance rejectedEnd = new WorkloadRollouts(history, http).awaitEnded(second, Duration.ofSeconds(60));
        assertThat(rejectedEnd.getEndActivityId()).isEqualTo("EndEvent_Done");
        assertThat(history.createHistoricVariableInstanceQuery().processInstanceId(second).variableName("lightsOutResult")
                .singleResult().getValue()).isEqualTo("rejected");
        assertThat(history.createHistoricProcessInstanceQuery().superProcessInstanceId(second).processDefinitionKey("attest-instance").count())
                .as("nothing was seeded").isZero();
    }
}
