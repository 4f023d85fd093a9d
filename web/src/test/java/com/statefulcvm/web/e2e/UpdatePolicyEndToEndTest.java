package com.statefulcvm.web.e2e;

import com.statefulcvm.web.SimulatorView;
import com.statefulcvm.web.RolloutDriver;
import com.statefulcvm.web.E2eSupport;
import com.fasterxml.jackson.databind.JsonNode;
import org.camunda.bpm.engine.HistoryService;
import com.statefulcvm.delegates.procedure.RolloutVariables;
import org.camunda.bpm.engine.TaskService;
import org.camunda.bpm.engine.task.Task;
import org.camunda.bpm.engine.history.HistoricActivityInstance;
import org.camunda.bpm.engine.history.HistoricProcessInstance;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.client.TestRestTemplate;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The update policy end to end: the application and its embedded simulator over real HTTP, a 5-replica set, one
 * rollout per policy. What happened is read from the simulator's event journal (every CVM status change) or from the
 * engine's history timestamps, not from the orchestrator's own account.
 * <p>
 * Every policy here is a per-rollout override ({@code "updatePolicy": {...}} in the start request) of a field whose
 * value in the fleet file (application-policy.yaml: maxUnavailable 1, maxSurge 0, minReadySeconds 0, partition 0,
 * ordinal-descending, progressDeadlineSeconds 20, onFailure PAUSE, approveLeader true by default) would give another
 * result, so each test fails when a step reads the file's policy instead of the rollout's: maxUnavailable (the planner's
 * waves and the budget check before each take-down), maxSurge, minReadySeconds (the health gate), partition, order,
 * approveLeader (the leader's approval), onFailure and progressDeadlineSeconds (the deadline).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.DEFINED_PORT)
@ActiveProfiles({"e2e", "policy"})
class UpdatePolicyEndToEndTest {

    private static final String SET = "quorum";
    private static final int REPLICAS = 5;

    @DynamicPropertySource
    static void port(DynamicPropertyRegistry registry) {
        E2eSupport.onFreePortWithDatabase(registry, "policy-e2e");
    }

    @Autowired
    TestRestTemplate http;
    @Autowired
    TaskService tasks;
    @Autowired
    HistoryService history;

    private RolloutDriver driver;
    private SimulatorView simulator;

    @BeforeEach
    void allRunning() {
        driver = new RolloutDriver(http, tasks, history, SET);
        simulator = new SimulatorView(http);
        driver.awaitAllRunning(REPLICAS);
    }

    private static String compose(String tag) {
        return "services:\n  web:\n    image: nginxdemos/hello:" + tag + "\n";
    }

    private List<String> hashes() throws Exception {
        List<String> hashes = new ArrayList<>();
        for (int ordinal = 0; ordinal < REPLICAS; ordinal++) {
            hashes.add(simulator.composeHash(SET + "-" + ordinal));
        }
        return hashes;
    }

    @Test
    void maxUnavailableTwoTakesAtMostTwoDownAndNeedsFewerRoundsThanOneAtATime() throws Exception {
        long since = simulator.lastEventSeq();
        String pid = driver.startRollout(compose("waves-2"), Map.of("maxUnavailable", 2));
        driver.awaitEnded(pid, "EndEvent_RolloutCompleted");

        List<JsonNode> events = SimulatorView.of(simulator.eventsSince(since), SET + "-");
        int maxDown = SimulatorView.maxUnavailable(events);
        int rounds = SimulatorView.rounds(events);
        System.out.printf("maxUnavailable 2 over %d replicas: at most %d down at once, %d rounds (one at a time: %d)%n",
                REPLICAS, maxDown, rounds, REPLICAS);
        // the guard: never more than two down; the plan: three waves of at most two, run as three wave steps. (How much
        // two steps of a wave overlap in time is the machine's speed, not the policy: not asserted.)
        assertThat(maxDown).isBetween(1, 2);
        assertThat(rounds).isBetween(3, REPLICAS);
        assertThat(waves(pid)).containsExactly(List.of(SET + "-4", SET + "-3"), List.of(SET + "-2", SET + "-1"), List.of(SET + "-0"));
        assertThat(waveSteps(pid)).as("one step per wave, fewer than one at a time").isEqualTo(3).isLessThan(REPLICAS);
        // The two instances of a wave go down together, in either order; the waves follow descending ordinals.
        List<String> order = SimulatorView.firstUpdateOrder(events);
        assertThat(order).hasSize(REPLICAS);
        assertThat(order.subList(0, 2)).containsExactlyInAnyOrder(SET + "-4", SET + "-3");
        assertThat(order.subList(2, 4)).containsExactlyInAnyOrder(SET + "-2", SET + "-1");
        assertThat(order.get(4)).isEqualTo(SET + "-0");
        assertThat(hashes().stream().distinct().count()).as("every CVM on the new compose").isEqualTo(1);
    }

    @Test
    void maxSurgeOneWithMaxUnavailableZeroNeverDropsBelowFiveRunning() throws Exception {
        long since = simulator.lastEventSeq();
        String pid = driver.startRollout(compose("surge-1"), Map.of("maxSurge", 1, "maxUnavailable", 0));
        driver.awaitEnded(pid, "EndEvent_RolloutCompleted");

        List<JsonNode> events = SimulatorView.of(simulator.eventsSince(since), SET + "-");
        int minRunning = SimulatorView.minRunning(events, REPLICAS);
        System.out.printf("maxSurge 1, maxUnavailable 0: fewest running at any moment %d of %d%n", minRunning, REPLICAS);
        assertThat(minRunning).isGreaterThanOrEqualTo(REPLICAS);
        assertThat(SimulatorView.touched(events)).as("the surge slot came and went").contains(SET + "-5");
        assertThat(events.get(events.size() - 1).get("cvm").asText()).isEqualTo(SET + "-5");
        assertThat(events.get(events.size() - 1).get("to").asText()).isEqualTo("deleted");
        assertThat(SimulatorView.maxUnavailable(events.stream().filter(e -> !e.get("cvm").asText().equals(SET + "-5")).toList()))
                .as("the old instances still went one at a time").isEqualTo(1);
        assertThat(hashes().stream().distinct().count()).isEqualTo(1);
    }

    @Test
    void partitionThreeUpdatesOnlyOrdinalsThreeAndFour() throws Exception {
        List<String> before = hashes();
        long since = simulator.lastEventSeq();
        String pid = driver.startRollout(compose("canary"), Map.of("partition", 3));
        driver.awaitEnded(pid, "EndEvent_RolloutCompleted");

        List<JsonNode> events = SimulatorView.of(simulator.eventsSince(since), SET + "-");
        assertThat(SimulatorView.touched(events)).containsExactly(SET + "-3", SET + "-4");
        List<String> after = hashes();
        assertThat(after.subList(0, 3)).isEqualTo(before.subList(0, 3));
        assertThat(after.get(3)).isEqualTo(after.get(4)).isNotEqualTo(before.get(3));
    }

    @Test
    void roleAwareOrderUpdatesTheReplicasFirstAndTheLeaderLastOnItsOwn() throws Exception {
        // The simulated workload answers GET /leader with 200 on the app's leader, as Patroni does.
        assertThat(http.postForEntity("/simulator/_admin/cvms/" + SET + "-2/role", RolloutDriver.json(Map.of("leader", true)),
                String.class).getStatusCode().is2xxSuccessful()).isTrue();
        long since = simulator.lastEventSeq();
        String pid = driver.startRollout(compose("roles"), Map.of("order", "role-aware", "maxUnavailable", 2,
                "approveLeader", false));
        // leaving the file's leader approval out is the approver's to accept, on the approval before the rollout (issue 32)
        Task approval = driver.awaitTask(pid, "UserTask_ApproveRollout");
        assertThat(driver.formVariables(approval.getId()).get(RolloutVariables.POLICY_OVERRIDES))
                .contains("approveLeader: false (fleet file: true)").contains("order: ROLE_AWARE (fleet file: ORDINAL_DESCENDING)");
        driver.approveAcceptingOverrides(pid);
        driver.awaitEnded(pid, "EndEvent_RolloutCompleted");

        List<JsonNode> events = SimulatorView.of(simulator.eventsSince(since), SET + "-");
        List<String> order = SimulatorView.firstUpdateOrder(events);
        System.out.println("role-aware order with the leader on " + SET + "-2: " + order);
        assertThat(order).hasSize(REPLICAS).endsWith(SET + "-2");
        List<List<String>> waves = waves(pid);
        assertThat(waves).as("replicas two at a time, then the leader alone").hasSize(3);
        assertThat(waves.get(2)).containsExactly(SET + "-2");
        assertThat(waves.subList(0, 2)).allMatch(wave -> wave.size() == 2 && !wave.contains(SET + "-2"));
        assertThat(waveSteps(pid)).isEqualTo(3);
        assertThat(SimulatorView.maxUnavailable(events)).as("never more than two down").isLessThanOrEqualTo(2);
        assertThat(history.createHistoricTaskInstanceQuery().processInstanceId(pid).taskDefinitionKey("UserTask_ApproveLeaderStep")
                .count()).as("approveLeader false: the leader's step asked nobody").isZero();
    }

    /**
     * minReadySeconds 2 (the file's: 0) holds each instance in the health gate at least 2 s: from the first probe of a
     * slot's step to the end of the probe that passed it, by the engine's history. partition 3 only keeps the test short
     * (two instances, one at a time, so the whole rollout needs two rounds of 2 s).
     */
    @Test
    void minReadySecondsOverrideHoldsEveryInstanceInTheHealthGateThatLong() throws Exception {
        int minReadySeconds = 2;
        String pid = driver.startRollout(compose("min-ready"), Map.of("minReadySeconds", minReadySeconds, "partition", 3));
        driver.awaitEnded(pid, "EndEvent_RolloutCompleted");

        Map<String, List<HistoricActivityInstance>> probesBySlotStep = history.createHistoricActivityInstanceQuery()
                .processInstanceId(pid).activityId("Task_ProbeHealth").finished().list().stream()
                .collect(Collectors.groupingBy(HistoricActivityInstance::getParentActivityInstanceId));
        assertThat(probesBySlotStep).as("one step for each of " + SET + "-4 and -3").hasSize(2);
        for (Collection<HistoricActivityInstance> probes : probesBySlotStep.values()) {
            long first = probes.stream().mapToLong(p -> p.getStartTime().getTime()).min().orElseThrow();
            long passed = probes.stream().mapToLong(p -> p.getEndTime().getTime()).max().orElseThrow();
            System.out.printf("minReadySeconds %d: %d probes, in the health gate %d ms%n", minReadySeconds, probes.size(), passed - first);
            assertThat(Duration.ofMillis(passed - first)).as("time in the health gate").isGreaterThanOrEqualTo(Duration.ofSeconds(minReadySeconds));
        }
        HistoricProcessInstance rollout = history.createHistoricProcessInstanceQuery().processInstanceId(pid).singleResult();
        assertThat(Duration.ofMillis(rollout.getEndTime().getTime() - rollout.getStartTime().getTime()))
                .as("two rounds of min ready").isGreaterThanOrEqualTo(Duration.ofSeconds(2L * minReadySeconds));
    }

    @Test
    void aRevisionThatNeverGetsHealthyIsRolledBackEverywhere() throws Exception {
        String good = driver.startRollout(compose("last-good"));
        driver.awaitEnded(good, "EndEvent_RolloutCompleted");
        List<String> before = hashes();
        assertThat(before.stream().distinct().count()).as("one revision to go back to").isEqualTo(1);
        String bad = "services:\n  web:\n    image: nginxdemos/hello:bad\n    labels: [\"simulator.workload.health=unhealthy\"]\n";
        long since = simulator.lastEventSeq();
        String pid = driver.startRollout(bad, Map.of("onFailure", "ROLLBACK", "progressDeadlineSeconds", 6, "maxUnavailable", 2));
        driver.awaitEnded(pid, "EndEvent_RolledBack");

        assertThat(hashes()).as("every instance back on the old compose hash").isEqualTo(before);
        List<JsonNode> events = SimulatorView.of(simulator.eventsSince(since), SET + "-");
        assertThat(SimulatorView.firstUpdateOrder(events)).as("only the first wave took the bad revision")
                .containsExactlyInAnyOrder(SET + "-4", SET + "-3");
        String outcome = (String) history.createHistoricVariableInstanceQuery().processInstanceId(pid).variableName("outcome")
                .singleResult().getValue();
        System.out.println("rollback outcome: " + outcome);
        assertThat(outcome).contains("rolled back after: progress deadline");
        // progressDeadlineSeconds 6 (the file's: 60): the deadline fired 6 s into the slot's step, not 60 s; the
        // automatic rollback itself runs under the file's deadline, never the failed rollout's shorter one
        List<HistoricActivityInstance> deadlines = history.createHistoricActivityInstanceQuery().processInstanceId(pid)
                .activityId("BoundaryEvent_ProgressDeadline").list();
        assertThat(deadlines).isNotEmpty();
        Map<String, HistoricActivityInstance> slotSteps = history.createHistoricActivityInstanceQuery().processInstanceId(pid)
                .activityId("SubProcess_UpdateSlot").list().stream()
                .collect(Collectors.toMap(HistoricActivityInstance::getParentActivityInstanceId, a -> a));
        for (HistoricActivityInstance deadline : deadlines) {
            HistoricActivityInstance step = slotSteps.get(deadline.getParentActivityInstanceId());
            Duration after = Duration.ofMillis(deadline.getStartTime().getTime() - step.getStartTime().getTime());
            System.out.println("progress deadline passed " + after.toMillis() + " ms into the slot's step");
            assertThat(after).isGreaterThanOrEqualTo(Duration.ofSeconds(6)).isLessThan(Duration.ofSeconds(60));
        }
    }

    /** The rollout's planned waves, as its plan step recorded them. */
    @SuppressWarnings("unchecked")
    private List<List<String>> waves(String pid) {
        return (List<List<String>>) history.createHistoricVariableInstanceQuery().processInstanceId(pid)
                .variableName(RolloutVariables.WAVES).singleResult().getValue();
    }

    /** How many waves the engine ran, one after another (the instances of "Run each wave in turn"). */
    private long waveSteps(String pid) {
        return history.createHistoricActivityInstanceQuery().processInstanceId(pid).activityId("SubProcess_RollOutInWaves").count();
    }
}
