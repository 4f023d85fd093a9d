package com.statefulcvm.web.e2e;

import com.statefulcvm.web.SimulatorView;
import com.statefulcvm.web.RolloutDriver;
import com.statefulcvm.web.E2eSupport;
import com.fasterxml.jackson.databind.JsonNode;
import com.statefulcvm.connectors.workload.consul.ConsulAutopilotHealth;
import com.statefulcvm.connectors.workload.consul.ConsulClient;
import com.statefulcvm.connectors.workload.consul.ConsulRaftServer;
import com.statefulcvm.connectors.workload.patroni.PatroniClient;
import com.statefulcvm.connectors.workload.patroni.PatroniCluster;
import com.statefulcvm.connectors.workload.patroni.PatroniMember;
import com.statefulcvm.delegates.procedure.RolloutVariables;
import org.camunda.bpm.engine.HistoryService;
import org.camunda.bpm.engine.RuntimeService;
import org.camunda.bpm.engine.TaskService;
import org.camunda.bpm.engine.history.HistoricProcessInstance;
import org.camunda.bpm.engine.task.Task;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.client.TestRestTemplate;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The demo's Patroni and Consul sets, exactly as {@code config/fleet.yaml} defines them (probes every second, see
 * {@link DemoFleet}), against the embedded simulator's simulated workloads over real HTTP: a surge rollout of
 * {@code patroni-demo} ({@code maxSurge 1, maxUnavailable 0}) completes, its surge instance having joined the simulated
 * Patroni cluster as a replica, and {@code consul-servers} scales 3 → 5 → 3, each new server a voter before it counts,
 * each removed one out of the raft configuration before its CVM stops. Both stalled before the simulator simulated
 * workload membership (issue 12). {@code galera-demo} runs through a rolling update, a heal and a lights-out recovery,
 * its CVMs' hold-back agent simulated (each node's seqno, held back until released, Synced once released).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.DEFINED_PORT)
@ActiveProfiles("e2e")
class DemoWorkloadsEndToEndTest {

    private static final Duration PROCEDURE_TIMEOUT = Duration.ofSeconds(240);

    @DynamicPropertySource
    static void demoFleet(DynamicPropertyRegistry registry) {
        E2eSupport.onFreePortWithDatabase(registry, "demo-workloads-e2e");
        DemoFleet.register(registry, "patroni-demo", "consul-servers", "galera-demo");
    }

    @Autowired
    TestRestTemplate http;
    @Autowired
    TaskService tasks;
    @Autowired
    HistoryService history;
    @Autowired
    RuntimeService runtime;
    @Value("${server.port}")
    int port;

    private URI admin(String cvm, int workloadPort) throws Exception {
        String instanceId = new SimulatorView(http).cvm(cvm).get("instance_id").asText();
        return URI.create("http://127.0.0.1:" + port + "/simulator/gateway/" + instanceId + "-" + workloadPort);
    }

    /** What the leader's approval showed (task name → its leaderStep), as Tasklist loaded it. */
    private final Map<String, String> leaderApprovals = new java.util.LinkedHashMap<>();

    /** Approves the rollout, every wave and the leader's step, as an operator in Tasklist would, until the rollout ends. */
    private HistoricProcessInstance approveUntilEnded(RolloutDriver driver, String pid) {
        return await().atMost(PROCEDURE_TIMEOUT).pollInterval(Duration.ofMillis(200)).until(() -> {
            for (Task task : tasks.createTaskQuery().processInstanceId(pid).list()) {
                assertThat(task.getTaskDefinitionKey()).as("the rollout halted: %s", runtimeStage(pid))
                        .isIn("UserTask_ApproveRollout", "UserTask_ApproveNextWave", "UserTask_ApproveLeaderStep");
                if ("UserTask_ApproveLeaderStep".equals(task.getTaskDefinitionKey())) {
                    leaderApprovals.put(task.getName(), driver.formVariables(task.getId()).get("leaderStep"));
                }
                ResponseEntity<String> done = driver.completeTask(task.getId(),
                        Map.of("approved", Map.of("value", true, "type", "Boolean")));
                assertThat(done.getStatusCode()).isEqualTo(HttpStatus.NO_CONTENT);
            }
            return history.createHistoricProcessInstanceQuery().processInstanceId(pid).finished().singleResult();
        }, ended -> ended != null);
    }

    private Object runtimeStage(String pid) {
        return runtime.createProcessInstanceQuery().processInstanceId(pid).count() == 0 ? "ended"
                : runtime.getVariable(pid, RolloutVariables.STAGE);
    }

    @Test
    void aSurgeRolloutOfPatroniDemoCompletesWithTheSurgeInstanceAsAReplica() throws Exception {
        RolloutDriver driver = new RolloutDriver(http, tasks, history, "patroni-demo");
        SimulatorView simulator = new SimulatorView(http);
        driver.awaitAllRunning(3);
        PatroniCluster before = new PatroniClient(admin("patroni-demo-1", 8008)).cluster();
        assertThat(before.members()).extracting(PatroniMember::name)
                .containsExactly("patroni-demo-0", "patroni-demo-1", "patroni-demo-2");
        String oldLeader = before.leader().orElseThrow().name();

        long since = simulator.lastEventSeq();
        String pid = driver.startRollout("""
                services:
                  patroni:
                    image: ghcr.io/zalando/spilo-16:3.3-p2
                    ports:
                      - "5432:5432"
                      - "8008:8008"
                """, Map.of("maxSurge", 1, "maxUnavailable", 0));
        HistoricProcessInstance ended = approveUntilEnded(driver, pid);

        assertThat(ended.getEndActivityId()).isEqualTo("EndEvent_RolloutCompleted");
        // role-aware with approveLeader on by default: the leader's step waited for its approval, which named the
        // replica the simulated Patroni would switch over to
        assertThat(leaderApprovals).containsOnlyKeys("Approve the leader's step: " + oldLeader);
        System.out.println("patroni-demo leader's approval: " + leaderApprovals.values().iterator().next().replace('\n', ' '));
        assertThat(leaderApprovals.values().iterator().next()).contains("Patroni switches over to patroni-demo-");
        List<JsonNode> events = SimulatorView.of(simulator.eventsSince(since), "patroni-demo-");
        assertThat(SimulatorView.touched(events)).as("the surge instance came and went").contains("patroni-demo-3");
        assertThat(SimulatorView.minRunning(events, 3)).as("maxUnavailable 0").isGreaterThanOrEqualTo(3);
        String target = simulator.composeHash("patroni-demo-0");
        for (String slot : List.of("patroni-demo-1", "patroni-demo-2")) {
            assertThat(simulator.composeHash(slot)).isEqualTo(target);
        }
        assertThat(simulator.cvmOrNull("patroni-demo-3")).as("the surge instance is gone").isNull();
        PatroniCluster after = new PatroniClient(admin("patroni-demo-0", 8008)).cluster();
        assertThat(after.members()).extracting(PatroniMember::name)
                .containsExactly("patroni-demo-0", "patroni-demo-1", "patroni-demo-2");
        assertThat(after.members()).allMatch(PatroniMember::isRunning);
        assertThat(after.leader()).isPresent();
        System.out.printf("patroni-demo surge rollout: leader %s before, %s after, timeline %d%n", oldLeader,
                after.leader().get().name(), after.leader().get().timeline());
    }

    private HistoricProcessInstance scale(int replicas) throws Exception {
        return scale("consul-servers", replicas);
    }

    private HistoricProcessInstance scale(String set, int replicas) throws Exception {
        ResponseEntity<String> started = http.withBasicAuth("admin", "admin").postForEntity(
                "/api/replica-sets/" + set + "/scale", RolloutDriver.json(Map.of("replicas", replicas)), String.class);
        assertThat(started.getStatusCode()).as(started.getBody()).isEqualTo(HttpStatus.CREATED);
        String pid = RolloutDriver.JSON.readTree(started.getBody()).get("processInstanceId").asText();
        return await().atMost(PROCEDURE_TIMEOUT).pollInterval(Duration.ofMillis(200)).until(() -> {
            // the halt reason is read only when a task is open: the instance may end between two reads
            long open = tasks.createTaskQuery().processInstanceId(pid).count();
            if (open > 0) {
                assertThat(open).as("the scale halted: %s", tasks.createTaskQuery().processInstanceId(pid).list().stream()
                        .map(task -> task.getName() + ": " + tasks.getVariable(task.getId(), "haltReason")).toList()).isZero();
            }
            return history.createHistoricProcessInstanceQuery().processInstanceId(pid).finished().singleResult();
        }, ended -> ended != null);
    }

    private List<String> raftServers() throws Exception {
        return new ConsulClient(admin("consul-servers-0", 8500)).raftConfiguration().servers().stream()
                .map(ConsulRaftServer::node).toList();
    }

    @Test
    void consulServersScaleFromThreeToFiveAndBackToThree() throws Exception {
        RolloutDriver driver = new RolloutDriver(http, tasks, history, "consul-servers");
        driver.awaitAllRunning(3);
        assertThat(raftServers()).containsExactly("consul-servers-0", "consul-servers-1", "consul-servers-2");

        assertThat(scale(5).getEndActivityId()).isEqualTo("EndEvent_Scaled");
        assertThat(raftServers()).containsExactly("consul-servers-0", "consul-servers-1", "consul-servers-2",
                "consul-servers-3", "consul-servers-4");
        ConsulAutopilotHealth five = new ConsulClient(admin("consul-servers-4", 8500)).autopilotHealth();
        assertThat(five.healthy()).isTrue();
        assertThat(five.failureTolerance()).isEqualTo(2);
        assertThat(driver.readSet().get("replicas").asInt()).isEqualTo(5);

        assertThat(scale(3).getEndActivityId()).isEqualTo("EndEvent_Scaled");
        assertThat(raftServers()).containsExactly("consul-servers-0", "consul-servers-1", "consul-servers-2");
        ConsulAutopilotHealth three = new ConsulClient(admin("consul-servers-1", 8500)).autopilotHealth();
        assertThat(three.healthy()).isTrue();
        assertThat(three.failureTolerance()).isEqualTo(1);
        SimulatorView simulator = new SimulatorView(http);
        for (String retained : List.of("consul-servers-3", "consul-servers-4")) {
            assertThat(simulator.cvm(retained).get("status").asText()).as(retained + " retained").isEqualTo("stopped");
        }
        assertThat(driver.readSet().get("replicas").asInt()).isEqualTo(3);
    }

    private int agentHealth(String cvm) throws Exception {
        return http.getForEntity(admin(cvm, 9000) + "/health", String.class).getStatusCode().value();
    }

    private boolean galeraSynced() throws Exception {
        for (int ordinal = 0; ordinal < 3; ordinal++) {
            if (agentHealth("galera-demo-" + ordinal) != 200) {
                return false;
            }
        }
        return true;
    }

    /**
     * galera-demo as README's tour shows it: a rolling update (one node at a time, the agent's Synced health as the
     * gate), a heal of a crashed node (restarted, it rejoins the running nodes at once), and a lights-out in the order
     * 0, 2, 1: the recovery reads each node's seqno through the agent, proposes the node that stopped last (ordinal 1,
     * not 0) as the seed in Tasklist, releases it first and the others after it, and every node is Synced again; then
     * a scale to 4 and back to 3.
     */
    @Test
    void galeraDemoRollsOutHealsRecoversFromALightsOutSeededFromTheLastNodeDownAndScales() throws Exception {
        RolloutDriver driver = new RolloutDriver(http, tasks, history, "galera-demo");
        SimulatorView simulator = new SimulatorView(http);
        driver.awaitAllRunning(3);
        await().atMost(Duration.ofSeconds(30)).until(this::galeraSynced);

        String rollout = driver.startRollout(java.nio.file.Files.readString(java.nio.file.Path.of("..", "config", "compose",
                "galera-demo.yaml")).replace("mariadb-galera-holdback:10.11", "mariadb-galera-holdback:10.11.19"));
        assertThat(approveUntilEnded(driver, rollout).getEndActivityId()).isEqualTo("EndEvent_RolloutCompleted");
        String target = simulator.composeHash("galera-demo-0");
        assertThat(simulator.composeHash("galera-demo-1")).isEqualTo(target);
        assertThat(simulator.composeHash("galera-demo-2")).isEqualTo(target);
        assertThat(galeraSynced()).isTrue();

        assertThat(http.postForEntity("/simulator/_admin/cvms/galera-demo-1/crash", null, String.class).getStatusCode()
                .is2xxSuccessful()).isTrue();
        ResponseEntity<String> heal = driver.admin().postForEntity("/api/replica-sets/galera-demo/instances/1/heal",
                RolloutDriver.json(Map.of("reason", "crashed in the demo")), String.class);
        assertThat(heal.getStatusCode()).as(heal.getBody()).isEqualTo(HttpStatus.CREATED);
        String healPid = RolloutDriver.JSON.readTree(heal.getBody()).get("processInstanceId").asText();
        HistoricProcessInstance healed = await().atMost(PROCEDURE_TIMEOUT).pollInterval(Duration.ofMillis(200)).until(() -> history
                .createHistoricProcessInstanceQuery().processInstanceId(healPid).finished().singleResult(), p -> p != null);
        assertThat(healed.getEndActivityId()).isEqualTo("EndEvent_HealedByRestart");
        await().atMost(Duration.ofSeconds(30)).until(this::galeraSynced);

        for (String cvm : List.of("galera-demo-0", "galera-demo-2", "galera-demo-1")) {
            simulator.stop(cvm);
            await().atMost(Duration.ofSeconds(30)).until(() -> "stopped".equals(simulator.cvm(cvm).path("status").asText()));
        }
        ResponseEntity<String> started = driver.admin().postForEntity("/api/replica-sets/galera-demo/lights-out-recovery",
                RolloutDriver.json(Map.of("reason", "power loss in the demo")), String.class);
        assertThat(started.getStatusCode()).as(started.getBody()).isEqualTo(HttpStatus.CREATED);
        String pid = RolloutDriver.JSON.readTree(started.getBody()).get("processInstanceId").asText();
        Task approval = driver.awaitTask(pid, "UserTask_ApproveSeed", PROCEDURE_TIMEOUT);
        String report = (String) runtime.getVariable(pid, "sequenceReport");
        System.out.println("galera-demo lights-out, the seed decision's report:\n" + report);
        assertThat(runtime.getVariable(pid, "chosenSeed")).as(report).isEqualTo("galera-demo-1");
        assertThat(report).contains("galera-demo-1: ").contains("<- largest: the seed");
        assertThat(agentHealth("galera-demo-1")).as("held back until released").isEqualTo(503);
        assertThat(driver.completeTask(approval.getId(), Map.of("approved", Map.of("value", true, "type", "Boolean")))
                .getStatusCode()).isEqualTo(HttpStatus.NO_CONTENT);
        HistoricProcessInstance recovered = await().atMost(PROCEDURE_TIMEOUT).pollInterval(Duration.ofMillis(200)).until(() -> history
                .createHistoricProcessInstanceQuery().processInstanceId(pid).finished().singleResult(), p -> p != null);
        assertThat(recovered.getEndActivityId()).isEqualTo("EndEvent_Done");
        assertThat(history.createHistoricVariableInstanceQuery().processInstanceId(pid).variableName("seed").singleResult().getValue())
                .isEqualTo("galera-demo-1");
        await().atMost(Duration.ofSeconds(30)).until(this::galeraSynced);

        // a fourth node joins (SST from the running ones, Synced before it counts) and leaves again, drained first
        assertThat(scale("galera-demo", 4).getEndActivityId()).isEqualTo("EndEvent_Scaled");
        assertThat(agentHealth("galera-demo-3")).as("the new node is Synced").isEqualTo(200);
        assertThat(driver.readSet().get("replicas").asInt()).isEqualTo(4);
        HistoricProcessInstance down = scale("galera-demo", 3);
        assertThat(down.getEndActivityId()).isEqualTo("EndEvent_Scaled");
        assertThat(history.createHistoricProcessInstanceQuery().rootProcessInstanceId(down.getId())
                .processDefinitionKey("drain-galera").count()).as("the leaving node was drained").isEqualTo(1);
        assertThat(simulator.cvm("galera-demo-3").get("status").asText()).as("retained, stopped").isEqualTo("stopped");
        assertThat(driver.readSet().get("replicas").asInt()).isEqualTo(3);
        assertThat(galeraSynced()).isTrue();
    }
}
