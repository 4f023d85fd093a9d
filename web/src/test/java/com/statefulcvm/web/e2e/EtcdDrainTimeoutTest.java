package com.statefulcvm.web.e2e;

import com.statefulcvm.workloads.WorkloadFixtures;
import com.statefulcvm.workloads.WorkloadEtcdMembers;
import com.statefulcvm.web.SimulatorView;
import com.statefulcvm.web.RolloutDriver;
import com.fasterxml.jackson.databind.JsonNode;
import com.statefulcvm.workloads.EtcdClusterFixture;
import com.statefulcvm.workloads.WorkloadScripts;
import org.camunda.bpm.engine.HistoryService;
import org.camunda.bpm.engine.RuntimeService;
import org.camunda.bpm.engine.TaskService;
import org.camunda.bpm.engine.history.HistoricProcessInstance;
import org.camunda.bpm.engine.task.Task;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.client.TestRestTemplate;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Issue 5, "must show": drain semantics against a real etcd. A rolling restart of one healthy member (policy
 * maxUnavailable 2) is planned while all three voters serve and waits for its approval; then another member's process
 * is stopped outside any rollout while its simulated CVM still reports "running" (CVM counts see three instances up,
 * etcd's own membership two healthy voters), and the rollout is approved. The plan's view is stale by then: the drain's
 * quorum check, made through etcd's API, must block the step; the hook times out after 5 s and the set's default result
 * decides: ABANDON ({@code etcdhold}) retains the instance (never restarted) and hands over to the operator, whose abort
 * ends the rollout; CONTINUE ({@code etcdgo}) proceeds with the restart. A rollout started while the voter is already
 * down never gets that far: the set's disruption budget refuses it at planning, with the reason in its report. Each set
 * has its own real etcd cluster. Skipped when etcd is not installed.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.DEFINED_PORT)
@ActiveProfiles({"e2e", "workload-etcd-drain"})
@DirtiesContext
@EnabledIf(value = "com.statefulcvm.workloads.WorkloadScripts#etcdInstalled", disabledReason = WorkloadScripts.ETCD_MISSING)
class EtcdDrainTimeoutTest {

    private static final String HOLD = "etcdhold";
    private static final String GO = "etcdgo";
    private static final int REPLICAS = 3;
    private static final String QUORUM_BLOCKED = "etcd: waiting: only 1 of 3 voters would stay healthy, quorum is 2";
    private static final Map<String, Object> RESTART_ONE = Map.of("updatePolicy", Map.of("minimalAction", "RESTART", "maxUnavailable", 2));

    @RegisterExtension
    static final ClassFixture<EtcdClusterFixture> HOLD_CLUSTER = new ClassFixture<>(WorkloadScripts::assumeEtcd, () ->
            WorkloadFixtures.etcd(WorkloadScripts.dataDirectory("etcd-drain-hold"), REPLICAS, HOLD));
    @RegisterExtension
    static final ClassFixture<EtcdClusterFixture> GO_CLUSTER = new ClassFixture<>(WorkloadScripts::assumeEtcd, () ->
            WorkloadFixtures.etcd(WorkloadScripts.dataDirectory("etcd-drain-go"), REPLICAS, GO));

    private static EtcdClusterFixture hold() {
        return HOLD_CLUSTER.get();
    }

    private static EtcdClusterFixture go() {
        return GO_CLUSTER.get();
    }

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        Map<String, String> backends = new HashMap<>(HOLD_CLUSTER.get().backendProperties());
        backends.putAll(GO_CLUSTER.get().backendProperties());
        WorkloadEndToEnd.register(registry, "etcd-drain-timeout", backends);
    }

    @Autowired
    TestRestTemplate http;
    @Autowired
    TaskService tasks;
    @Autowired
    HistoryService history;
    @Autowired
    RuntimeService runtime;

    private SimulatorView simulator;
    private WorkloadRollouts rollouts;

    @BeforeEach
    void setUp() {
        simulator = new SimulatorView(http);
        rollouts = new WorkloadRollouts(history, http);
        new RolloutDriver(http, tasks, history, HOLD).awaitAllRunning(REPLICAS);
        new RolloutDriver(http, tasks, history, GO).awaitAllRunning(REPLICAS);
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250))
                .until(() -> WorkloadEtcdMembers.allHealthy(hold()) && WorkloadEtcdMembers.allHealthy(go()));
    }

    /** A rolling restart of one instance ({@code POST .../instances/{ordinal}/rollout}), its compose unchanged. */
    private String restartInstance(String set, int ordinal) throws Exception {
        ResponseEntity<String> created = http.withBasicAuth("admin", "admin").postForEntity(
                "/api/replica-sets/" + set + "/instances/" + ordinal + "/rollout", RolloutDriver.json(RESTART_ONE), String.class);
        assertThat(created.getStatusCode()).as(created.getBody()).isEqualTo(HttpStatus.CREATED);
        return RolloutDriver.JSON.readTree(created.getBody()).get("processInstanceId").asText();
    }

    /** The drain-etcd run for the slot showed the quorum budget holding it back. */
    private HistoricProcessInstance awaitQuorumBlocked(String pid, String slot) throws Exception {
        try {
            return await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100)).until(() -> rollouts
                    .hookRuns(pid, "drain-etcd", slot).stream()
                    .filter(run -> rollouts.values(run.getId(), "stage").contains(QUORUM_BLOCKED)).findFirst().orElse(null), r -> r != null);
        } catch (ConditionTimeoutException e) {
            throw new AssertionError("the drain of " + slot + " never showed the quorum budget holding it back; the rollout: "
                    + rollouts.report(pid) + "\nits stages:\n" + rollouts.stages(pid), e);
        }
    }

    /**
     * A restart of the instance, planned while every voter serves and held at its approval; then the member {@code down}
     * stops (its CVM still running) and the rollout is approved: what it planned no longer holds when its step drains.
     */
    private String restartPlannedBeforeTheMemberStops(EtcdClusterFixture etcd, String set, int ordinal, String down) throws Exception {
        String pid = restartInstance(set, ordinal);
        RolloutDriver driver = new RolloutDriver(http, tasks, history, set);
        driver.awaitTask(pid, "UserTask_ApproveRollout");
        etcd.memberStop(down);
        assertThat(status(down)).isEqualTo("running");
        driver.approve(pid);
        return pid;
    }

    /** The run-hook instances that ran the drain (not the rejoin) of the slot. */
    private List<HistoricProcessInstance> drainHookRuns(String pid, String slot) {
        return rollouts.hookRuns(pid, "run-hook", slot).stream()
                .filter(run -> rollouts.values(run.getId(), "hook").contains("drain")).toList();
    }

    private String status(String cvm) throws Exception {
        return simulator.cvm(cvm).path("status").asText();
    }

    @Test
    void aDrainHeldBackByTheQuorumBudgetTimesOutAndAbandonRetainsTheInstanceUntilTheOperatorAborts() throws Exception {
        String down = HOLD + "-0";
        String target = HOLD + "-2";
        long targetPid = hold().pid(target);
        long since = simulator.lastEventSeq();
        Instant started = Instant.now();
        try {
            String pid = restartPlannedBeforeTheMemberStops(hold(), HOLD, 2, down); // the process only: its CVM still runs

            // the quorum check blocks the step: two healthy voters now, one after taking etcdhold-2 down
            HistoricProcessInstance drain = awaitQuorumBlocked(pid, target);
            JsonNode whileBlocked = rollouts.report(pid);
            System.out.println("etcd quorum blocked; rollout report while the drain waits: stage=" + whileBlocked.path("stage")
                    + ", blockers=" + whileBlocked.path("blockers"));

            // the hook times out and ABANDON hands over to the operator
            List<String> drainHooks = drainHookRuns(pid, target).stream().map(HistoricProcessInstance::getId).toList();
            Task task = await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100)).until(() -> tasks.createTaskQuery()
                    .processInstanceIdIn(drainHookRuns(pid, target).stream().map(HistoricProcessInstance::getId).toArray(String[]::new))
                    .taskDefinitionKey("UserTask_HookDidNotFinish").singleResult(), t -> t != null);
            assertThat(drainHooks).isNotEmpty();
            assertThat(task.getName()).isEqualTo("The drain of " + target + " did not finish: retry, continue anyway or abort");
            Duration waited = Duration.between(drain.getStartTime().toInstant(), task.getCreateTime().toInstant());
            assertThat(waited).as("the hook's timeout (5 s) ran out first").isGreaterThanOrEqualTo(Duration.ofMillis(4900));
            Object failure = runtime.getVariable(task.getExecutionId(), "hookFailure");
            assertThat(String.valueOf(failure)).contains("the drain of " + target + " did not finish within PT5S");
            JsonNode report = rollouts.report(pid);
            assertThat(report.path("state").asText()).isEqualTo("running");
            assertThat(report.path("blockers").toString()).contains("waiting: The drain of " + target + " did not finish");

            // retained: the instance was never restarted, its etcd member still runs the same process
            List<JsonNode> events = SimulatorView.of(simulator.eventsSince(since), HOLD + "-");
            assertThat(events).as("no CVM of " + HOLD + " changed status").isEmpty();
            assertThat(status(target)).isEqualTo("running");
            assertThat(hold().pid(target)).isEqualTo(targetPid);

            // the operator aborts: the rollout ends aborted, and still nothing was restarted
            ResponseEntity<String> done = new RolloutDriver(http, tasks, history, HOLD).completeTask(task.getId(),
                    Map.of("decision", Map.of("value", "abort", "type", "String")));
            assertThat(done.getStatusCode()).as(done.getBody()).isEqualTo(HttpStatus.NO_CONTENT);
            HistoricProcessInstance ended = rollouts.awaitEnded(pid, Duration.ofSeconds(60));
            assertThat(ended.getEndActivityId()).as(rollouts.stages(pid)).isEqualTo("EndEvent_RolloutAborted");
            assertThat(SimulatorView.of(simulator.eventsSince(since), HOLD + "-")).isEmpty();
            assertThat(hold().pid(target)).isEqualTo(targetPid);

            // with the voter still down, a new restart is refused at planning by the set's disruption budget, and says why
            String refused = restartInstance(HOLD, 2);
            HistoricProcessInstance refusal = rollouts.awaitEnded(refused, Duration.ofSeconds(60));
            assertThat(refusal.getEndActivityId()).as(rollouts.stages(refused)).isEqualTo("EndEvent_RolloutRefused");
            assertThat(rollouts.report(refused).path("outcome").asText())
                    .isEqualTo("refused: 1 instance is already unavailable outside this rollout's scope and maxUnavailable is 1: "
                            + "no instance can be taken down");
            assertThat(SimulatorView.of(simulator.eventsSince(since), HOLD + "-")).isEmpty();
            System.out.printf("etcd drain with ABANDON: blocked by the quorum budget (%s), hook timed out after %d ms, "
                            + "operator task '%s' (hookFailure: %s), aborted; %s never restarted; took %d s%n",
                    QUORUM_BLOCKED, waited.toMillis(), task.getName(), failure, target,
                    Duration.between(started, Instant.now()).toSeconds());
        } finally {
            hold().memberStart(down);
        }
    }

    @Test
    void aDrainHeldBackByTheQuorumBudgetTimesOutAndContinueProceedsWithTheRestart() throws Exception {
        String down = GO + "-0";
        String target = GO + "-2";
        long targetPid = go().pid(target);
        long since = simulator.lastEventSeq();
        Instant started = Instant.now();
        try {
            String pid = restartPlannedBeforeTheMemberStops(go(), GO, 2, down);

            HistoricProcessInstance drain = awaitQuorumBlocked(pid, target);
            HistoricProcessInstance ended = rollouts.awaitEnded(pid, Duration.ofMinutes(3));
            assertThat(ended.getEndActivityId()).as(rollouts.stages(pid)).isEqualTo("EndEvent_RolloutCompleted");

            // the drain timed out and the default result CONTINUE went on without it
            List<HistoricProcessInstance> drainHooks = drainHookRuns(pid, target);
            assertThat(drainHooks).hasSize(1);
            assertThat(drainHooks.get(0).getEndActivityId()).isEqualTo("EndEvent_ContinuedByDefault");
            assertThat(rollouts.passed(drainHooks.get(0).getId(), "BoundaryEvent_HookTimedOut")).hasSize(1);
            assertThat(tasks.createTaskQuery().processInstanceIdIn(drainHooks.get(0).getId()).count()).isZero();

            // and the instance was restarted after the timeout: its CVM once, its etcd member with it
            List<JsonNode> events = SimulatorView.of(simulator.eventsSince(since), GO + "-");
            assertThat(WorkloadRollouts.restartOrder(events)).containsExactly(target);
            assertThat(WorkloadRollouts.transitions(events, target, "restarting")).isEqualTo(1);
            Instant restarting = WorkloadRollouts.firstTransition(events, target, "restarting");
            Duration afterDrainStart = Duration.between(drain.getStartTime().toInstant(), restarting);
            assertThat(afterDrainStart).as("restarted only once the 5 s drain timeout had passed")
                    .isGreaterThanOrEqualTo(Duration.ofMillis(4900));
            assertThat(go().pid(target)).as("a new etcd process for " + target).isPositive().isNotEqualTo(targetPid);
            System.out.printf("etcd drain with CONTINUE: blocked by the quorum budget, hook timed out, %s restarted %d ms "
                            + "after its drain started; rollout completed in %d s%n",
                    target, afterDrainStart.toMillis(), Duration.between(started, Instant.now()).toSeconds());
        } finally {
            go().memberStart(down);
        }
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250)).until(() -> WorkloadEtcdMembers.allHealthy(go()));
    }
}
