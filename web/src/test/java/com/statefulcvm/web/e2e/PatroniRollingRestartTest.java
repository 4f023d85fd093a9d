package com.statefulcvm.web.e2e;

import com.statefulcvm.workloads.WorkloadWriteLog;
import com.statefulcvm.workloads.WorkloadSqlWriter;
import com.statefulcvm.workloads.WorkloadLeaderWatch;
import com.statefulcvm.workloads.WorkloadFixtures;
import com.statefulcvm.web.SimulatorView;
import com.fasterxml.jackson.databind.JsonNode;
import com.statefulcvm.workloads.PatroniClusterFixture;
import com.statefulcvm.workloads.WorkloadScripts;
import org.camunda.bpm.engine.HistoryService;
import org.camunda.bpm.engine.TaskService;
import org.camunda.bpm.engine.history.HistoricActivityInstance;
import org.camunda.bpm.engine.history.HistoricProcessInstance;
import org.camunda.bpm.engine.task.Task;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.client.TestRestTemplate;
import org.springframework.boot.test.web.server.LocalServerPort;
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
 * Issue 5, "must show": a role-aware rolling restart of a real 3-node Patroni cluster through rollout.bpmn. The
 * application and its embedded simulator run over real HTTP; the simulated CVMs {@code pgdemo-0..2} are backed by the
 * nodes of a real Patroni + PostgreSQL 15 cluster ({@link PatroniClusterFixture}: a restart of a CVM stops and starts
 * its Patroni node, and the CVM's gateway route on 8008 reaches that node's REST API, so health, the role probe and
 * the drain/rejoin hooks talk to the real Patroni). A writer inserts a row every 100 ms through whichever node is the
 * primary. Shown: replicas first, a switchover before the old leader is touched, the old leader last, no committed row
 * lost, and the longest write gap (printed). Skipped when Patroni, PostgreSQL or etcd is not installed.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.DEFINED_PORT)
@ActiveProfiles({"e2e", "workload-patroni"})
@DirtiesContext
@EnabledIf(value = "com.statefulcvm.workloads.WorkloadScripts#patroniInstalled", disabledReason = WorkloadScripts.PATRONI_MISSING)
class PatroniRollingRestartTest extends PatroniEndToEnd {

    @RegisterExtension
    static final ClassFixture<PatroniClusterFixture> PATRONI = new ClassFixture<>(WorkloadScripts::assumePatroni, () ->
            WorkloadFixtures.patroni(WorkloadScripts.dataDirectory("patroni-rolling-restart"), REPLICAS, SET));

    private static PatroniClusterFixture patroni() {
        return PATRONI.get();
    }

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        register(registry, "patroni-rolling-restart", PATRONI.get().backendProperties());
    }

    private static String leaderNow() {
        return leaderNow(patroni());
    }

    @Test
    void roleAwareRollingRestartGoesReplicasFirstSwitchesOverBeforeTheLeaderAndLosesNoCommittedRow() throws Exception {
        driver.awaitAllRunning(REPLICAS);
        patroni().awaitStreaming(60);
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250)).until(() -> allHealthyThroughTheGateway(REPLICAS));
        String oldLeader = await().atMost(Duration.ofSeconds(30)).until(PatroniRollingRestartTest::leaderNow, l -> l != null);
        // FleetBootstrap created pgdemo-0..2, and the simulator ran each backend's start command as its CVM first
        // reached running: the fixture had started the node already, so node-start left the same process running
        Map<String, Long> pidsBefore = new HashMap<>();
        for (PatroniClusterFixture.Node node : patroni().nodes()) {
            rollouts.awaitBackendResults(node.name(), "start:ok");
            pidsBefore.put(node.name(), patroni().pid(node.name()));
            assertThat(pidsBefore.get(node.name())).as("the fixture's own process still runs " + node.name()).isEqualTo(node.pid());
        }
        String compose = currentCompose();

        try (WorkloadSqlWriter writer = new WorkloadSqlWriter(patroni().nodes());
             WorkloadLeaderWatch leaders = new WorkloadLeaderWatch(PatroniRollingRestartTest::leaderNow)) {
            writer.createTable();
            writer.start();
            leaders.start();
            await().atMost(Duration.ofSeconds(30)).until(() -> writer.log().count() >= 20);

            long since = simulator.lastEventSeq();
            Instant started = Instant.now();
            String pid = driver.startRollout(compose, Map.of("minimalAction", "RESTART", "order", "role-aware"));
            HistoricProcessInstance ended;
            try {
                // updatePolicy.approveLeader (on by default): the leader's step waits for an operator, who is shown
                // the replica Patroni would switch over to, asked of the real cluster
                Task leaderApproval = driver.awaitTask(pid, "UserTask_ApproveLeaderStep", Duration.ofMinutes(4));
                assertThat(leaderApproval.getName()).isEqualTo("Approve the leader's step: " + oldLeader);
                Map<String, String> form = driver.formVariables(leaderApproval.getId());
                System.out.println("leader's approval: " + form.get("leaderStep").replace('\n', ' '));
                assertThat(form.get("leaderStep")).contains("Drain it (drain-patroni): Patroni switches over to " + SET + "-");
                assertThat(form.get("stepsSoFar")).contains("2. ");
                driver.approveLeader(leaderApproval.getId());
                ended = rollouts.awaitEnded(pid, Duration.ofMinutes(5));
            } catch (RuntimeException | AssertionError e) {
                System.out.println("rollout " + pid + " did not end:\n" + rollouts.report(pid).toPrettyString()
                        + "\nstages:\n" + rollouts.stages(pid) + "\nwriter failures: " + writer.log().lastFailures());
                throw e;
            }
            Instant finished = Instant.now();
            int atEnd = writer.log().count();
            await().atMost(Duration.ofSeconds(30)).until(() -> writer.log().count() >= atEnd + 10);
            writer.close();
            leaders.close();

            assertThat(ended.getEndActivityId()).as("rollout outcome; stages:\n" + rollouts.stages(pid))
                    .isEqualTo("EndEvent_RolloutCompleted");
            List<JsonNode> events = SimulatorView.of(simulator.eventsSince(since), SET + "-");

            // replicas first, the old leader last, every CVM restarted exactly once (and its Patroni process with it)
            List<String> order = WorkloadRollouts.restartOrder(events);
            assertThat(order).as("restart order in the journal").hasSize(REPLICAS).endsWith(oldLeader)
                    .containsExactlyInAnyOrder(slot(0), slot(1), slot(2));
            for (int ordinal = 0; ordinal < REPLICAS; ordinal++) {
                assertThat(WorkloadRollouts.transitions(events, slot(ordinal), "restarting")).as(slot(ordinal) + " restarts")
                        .isEqualTo(1);
                assertThat(patroni().pid(slot(ordinal))).as("a new Patroni process for " + slot(ordinal)).isPositive()
                        .isNotEqualTo(pidsBefore.get(slot(ordinal)));
            }

            // the switchover: drain-patroni switched the old leader over, and a new leader ran, before its CVM restarted
            Instant leaderRestarting = WorkloadRollouts.firstTransition(events, oldLeader, "restarting");
            List<HistoricProcessInstance> leaderDrains = rollouts.hookRuns(pid, "drain-patroni", oldLeader);
            HistoricActivityInstance switchover = rollouts.firstPassed(leaderDrains, "Task_SwitchOver")
                    .orElseThrow(() -> new AssertionError("no switchover in the drain of " + oldLeader));
            HistoricActivityInstance confirmed = rollouts.firstPassed(leaderDrains, "Task_ConfirmNewLeader").orElseThrow();
            assertThat(switchover.getEndTime().toInstant()).isBefore(leaderRestarting);
            assertThat(confirmed.getEndTime().toInstant()).isBefore(leaderRestarting);
            for (String replica : order.subList(0, REPLICAS - 1)) {
                assertThat(WorkloadRollouts.firstTransition(events, replica, "restarting")).as(replica + " before the switchover")
                        .isBefore(switchover.getStartTime().toInstant());
                assertThat(rollouts.firstPassed(rollouts.hookRuns(pid, "drain-patroni", replica), "Task_SwitchOver"))
                        .as("no switchover for the replica " + replica).isEmpty();
            }
            Instant otherLeader = leaders.firstOtherLeader(oldLeader, started)
                    .orElseThrow(() -> new AssertionError("leadership never left " + oldLeader + ": " + leaders.changes()));
            assertThat(otherLeader).as("Patroni showed another leader before the old leader's CVM left running")
                    .isBefore(leaderRestarting);
            String newLeader = leaderNow();
            assertThat(newLeader).as("the old leader is not the leader after the switchover").isNotNull().isNotEqualTo(oldLeader);
            patroni().awaitStreaming(60);

            // no committed row lost
            List<WorkloadWriteLog.Write> committed = writer.log().acknowledged();
            assertThat(writer.lostCommits()).as("acknowledged commits missing from the table").isEmpty();

            WorkloadWriteLog.Gap gap = writer.log().longestGap(started, finished);
            System.out.printf("Patroni role-aware rolling restart: restart order %s (leader %s last), switchover %s -> %s "
                            + "done at %s, new leader seen at %s, %s restarting at %s; rollout took %d s; %d rows committed "
                            + "(%d failed attempts), none lost; LONGEST WRITE GAP %d ms (%s)%n",
                    order, oldLeader, oldLeader, newLeader, switchover.getEndTime().toInstant(), otherLeader, oldLeader,
                    leaderRestarting, Duration.between(started, finished).toSeconds(), committed.size(),
                    writer.log().failures(), gap.length().toMillis(), gap);
            System.out.println("leader changes: " + leaders.changes());
            assertThat(gap.length()).as("longest write gap (target under 5 s)").isLessThan(Duration.ofSeconds(30));
        }
    }
}
