package com.statefulcvm.web.e2e;

import com.statefulcvm.workloads.WorkloadWriteLog;
import com.statefulcvm.workloads.WorkloadLeaderWatch;
import com.statefulcvm.workloads.WorkloadFixtures;
import com.statefulcvm.workloads.WorkloadEtcdWriter;
import com.statefulcvm.workloads.WorkloadEtcdMembers;
import com.statefulcvm.web.SimulatorView;
import com.fasterxml.jackson.databind.JsonNode;
import com.statefulcvm.workloads.EtcdClusterFixture;
import com.statefulcvm.workloads.WorkloadScripts;
import org.camunda.bpm.engine.HistoryService;
import org.camunda.bpm.engine.TaskService;
import org.camunda.bpm.engine.history.HistoricActivityInstance;
import org.camunda.bpm.engine.history.HistoricProcessInstance;
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

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Issue 5, "must show": a rolling restart of a real 3-member etcd cluster through rollout.bpmn. The simulated CVMs
 * {@code etcddemo-0..2} are backed by the members of a real etcd 3.4 cluster ({@link EtcdClusterFixture}: a restart of
 * a CVM stops and starts its member, and the CVM's gateway route on 2379 reaches the member's client port, so health
 * and the drain/rejoin hooks talk to the real etcd). etcd has no endpoint that answers 200 on the leader only, so the
 * order is ordinal-descending and drain-etcd moves leadership away from whichever member leads when its turn comes.
 * A writer puts a key every 100 ms through the CVMs' gateway routes. Shown: leadership moved before the leader
 * restarted, writes continued (longest gap printed), every acknowledged key and the last value readable. Skipped when
 * etcd is not installed.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.DEFINED_PORT)
@ActiveProfiles({"e2e", "workload-etcd"})
@DirtiesContext
@EnabledIf(value = "com.statefulcvm.workloads.WorkloadScripts#etcdInstalled", disabledReason = WorkloadScripts.ETCD_MISSING)
class EtcdRollingRestartTest extends WorkloadEndToEnd {

    private static final String SET = "etcddemo";
    private static final int REPLICAS = 3;
    @RegisterExtension
    static final ClassFixture<EtcdClusterFixture> ETCD = new ClassFixture<>(WorkloadScripts::assumeEtcd, () ->
            WorkloadFixtures.etcd(WorkloadScripts.dataDirectory("etcd-rolling-restart"), REPLICAS, SET));

    private static EtcdClusterFixture etcd() {
        return ETCD.get();
    }

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        register(registry, "etcd-rolling-restart", ETCD.get().backendProperties());
    }

    @Override
    String set() {
        return SET;
    }

    @Override
    int workloadPort() {
        return EtcdClusterFixture.CLIENT_PORT;
    }

    @Test
    void rollingRestartMovesLeadershipBeforeTheLeaderRestartsAndWritesContinue() throws Exception {
        driver.awaitAllRunning(REPLICAS);
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250)).until(() -> WorkloadEtcdMembers.allHealthy(etcd()));
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250)).until(() -> allHealthyThroughTheGateway(REPLICAS));
        String initialLeader = await().atMost(Duration.ofSeconds(30)).until(() -> WorkloadEtcdMembers.leader(etcd()), l -> l != null);
        // FleetBootstrap created etcddemo-0..2, and the simulator ran each backend's start command as its CVM first
        // reached running: the fixture had started the member already, so member-start left the same process running
        Map<String, Long> pidsBefore = new HashMap<>();
        for (EtcdClusterFixture.Member member : etcd().members()) {
            rollouts.awaitBackendResults(member.name(), "start:ok");
            pidsBefore.put(member.name(), etcd().pid(member.name()));
            assertThat(pidsBefore.get(member.name())).as("the fixture's own process still runs " + member.name()).isEqualTo(member.pid());
        }
        String compose = currentCompose();

        try (WorkloadEtcdWriter writer = new WorkloadEtcdWriter(gatewayRoutes(REPLICAS));
             WorkloadLeaderWatch leaders = new WorkloadLeaderWatch(() -> WorkloadEtcdMembers.leader(etcd()))) {
            writer.start();
            leaders.start();
            await().atMost(Duration.ofSeconds(30)).until(() -> writer.log().count() >= 20);

            long since = simulator.lastEventSeq();
            Instant started = Instant.now();
            String pid = driver.startRollout(compose, Map.of("minimalAction", "RESTART"));
            HistoricProcessInstance ended;
            try {
                ended = rollouts.awaitEnded(pid, Duration.ofMinutes(4));
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

            // every CVM restarted once, in the set's order, and its etcd process with it
            List<String> order = WorkloadRollouts.restartOrder(events);
            assertThat(order).as("restart order in the journal").containsExactly(slot(2), slot(1), slot(0));
            for (int ordinal = 0; ordinal < REPLICAS; ordinal++) {
                assertThat(WorkloadRollouts.transitions(events, slot(ordinal), "restarting")).as(slot(ordinal) + " restarts")
                        .isEqualTo(1);
                assertThat(etcd().pid(slot(ordinal))).as("a new etcd process for " + slot(ordinal)).isPositive()
                        .isNotEqualTo(pidsBefore.get(slot(ordinal)));
            }

            // leadership moved before the leader restarted: each member that led when its drain ran handed leadership
            // over (Task_MoveLeadership, then another leader confirmed) before its CVM left running, and etcd itself
            // showed another leader by then
            List<String> movedFrom = new ArrayList<>();
            for (String cvm : order) {
                Instant restarting = WorkloadRollouts.firstTransition(events, cvm, "restarting");
                List<HistoricProcessInstance> drains = rollouts.hookRuns(pid, "drain-etcd", cvm);
                assertThat(drains).as("drain-etcd ran for " + cvm).isNotEmpty();
                boolean ledWhenDrained = drains.stream().anyMatch(d -> rollouts.values(d.getId(), "isLeader").contains(true));
                if (!ledWhenDrained) {
                    assertThat(rollouts.firstPassed(drains, "Task_MoveLeadership")).as("no leadership move for " + cvm).isEmpty();
                    continue;
                }
                movedFrom.add(cvm);
                HistoricActivityInstance moved = rollouts.firstPassed(drains, "Task_MoveLeadership")
                        .orElseThrow(() -> new AssertionError(cvm + " led, but its drain moved no leadership"));
                HistoricActivityInstance confirmed = rollouts.firstPassed(drains, "Task_ConfirmNewLeader").orElseThrow();
                assertThat(moved.getEndTime().toInstant()).isBefore(restarting);
                assertThat(confirmed.getEndTime().toInstant()).isBefore(restarting);
                Instant otherLeader = leaders.firstOtherLeader(cvm, moved.getStartTime().toInstant())
                        .orElseThrow(() -> new AssertionError("etcd never showed a leader other than " + cvm + ": " + leaders.changes()));
                assertThat(otherLeader).as("etcd showed another leader before " + cvm + " restarted").isBefore(restarting);
                System.out.printf("etcd: %s led when drained; leadership moved (drain step done %s), another leader seen %s, "
                        + "%s restarting %s%n", cvm, moved.getEndTime().toInstant(), otherLeader, cvm, restarting);
            }
            assertThat(movedFrom).as("the drain of the leader moved leadership").isNotEmpty();
            for (String cvm : order) {
                assertThat(leaders.leaderAt(WorkloadRollouts.firstTransition(events, cvm, "restarting")))
                        .as("who led when " + cvm + " restarted").isNotEqualTo(cvm);
            }
            assertThat(WorkloadEtcdMembers.leader(etcd())).as("etcd has a leader after the rollout").isNotNull();

            // writes continued, and every acknowledged one is readable
            List<WorkloadWriteLog.Write> acknowledged = writer.log().acknowledged();
            Map<String, String> stored = writer.readAll();
            List<String> lost = acknowledged.stream().map(w -> WorkloadEtcdWriter.key(w.id()))
                    .filter(k -> !stored.containsKey(k)).toList();
            assertThat(lost).as("acknowledged puts missing").isEmpty();
            WorkloadWriteLog.Write last = acknowledged.get(acknowledged.size() - 1);
            assertThat(stored.get(WorkloadEtcdWriter.key(last.id()))).as("the last value written").isEqualTo(Long.toString(last.id()));

            WorkloadWriteLog.Gap gap = writer.log().longestGap(started, finished);
            System.out.printf("etcd rolling restart: restart order %s, leader before %s, leadership moved from %s, leader after %s; "
                            + "rollout took %d s; %d puts acknowledged (%d failed attempts), all readable, last %s=%s; "
                            + "LONGEST WRITE GAP %d ms (%s)%n",
                    order, initialLeader, movedFrom, WorkloadEtcdMembers.leader(etcd()), Duration.between(started, finished).toSeconds(),
                    acknowledged.size(), writer.log().failures(), WorkloadEtcdWriter.key(last.id()), last.id(),
                    gap.length().toMillis(), gap);
            System.out.println("leader changes: " + leaders.changes());
            assertThat(gap.length()).as("longest write gap").isLessThan(Duration.ofSeconds(30));
        }
    }
}
