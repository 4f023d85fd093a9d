package com.statefulcvm.web.e2e;

import com.statefulcvm.workloads.WorkloadWriteLog;
import com.statefulcvm.workloads.WorkloadSqlWriter;
import com.statefulcvm.workloads.WorkloadFixtures;
import com.statefulcvm.web.RolloutDriver;
import com.fasterxml.jackson.databind.JsonNode;
import com.statefulcvm.workloads.PatroniClusterFixture;
import com.statefulcvm.workloads.WorkloadScripts;
import org.camunda.bpm.engine.RuntimeService;
import org.camunda.bpm.engine.history.HistoricProcessInstance;
import org.camunda.bpm.engine.task.Task;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Issue 12, "must show" for Patroni: a real 3-node Patroni + PostgreSQL set whose leader is not ordinal 0 takes a stream
 * of acknowledged inserts; its two replicas' CVMs are stopped first, the leader goes on acknowledging inserts alone, then
 * its CVM is stopped too: only the old leader holds the most recent WAL. Each CVM runs its node through the shipped
 * hold-back agent ({@code config/compose/holdback-agent.py}, as the demo compose does: the fixture's node-start-held),
 * which starts Patroni only when released, or once a leader runs, or for a node without data. {@code POST
 * .../lights-out-recovery} starts every CVM (no Patroni runs: no leader race), reads each member's (timeline, WAL
 * position) from its data directory through the agent, proposes the old leader as the seed in the operator's form,
 * releases it first, then the others, which rejoin as streaming replicas. No acknowledged row is lost. Skipped when
 * Patroni or PostgreSQL is not installed.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.DEFINED_PORT)
@ActiveProfiles({"e2e", "workload-patroni-lights-out"})
@DirtiesContext
@EnabledIf(value = "com.statefulcvm.workloads.WorkloadScripts#patroniInstalled", disabledReason = WorkloadScripts.PATRONI_MISSING)
class PatroniLightsOutTest extends PatroniEndToEnd {

    @RegisterExtension
    static final ClassFixture<PatroniClusterFixture> PATRONI = new ClassFixture<>(WorkloadScripts::assumePatroni,
            () -> WorkloadFixtures.patroni(WorkloadScripts.dataDirectory("patroni-lights-out"), REPLICAS, SET));

    private static PatroniClusterFixture patroni() {
        return PATRONI.get();
    }

    @Autowired
    RuntimeService runtimeService;

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        // each CVM's start runs its node through the hold-back agent, as the compose would
        register(registry, "patroni-lights-out", PATRONI.get().heldBackendProperties());
    }

    /** Every release the nodes' agents made so far, oldest first ("<time> released: <how>" with the node's name). */
    private static List<String> releases() {
        return patroni().nodes().stream().flatMap(n -> patroni().releases(n.name()).stream().map(line -> line + " [" + n.name() + "]"))
                .sorted().toList();
    }

    @Test
    void theMemberWithTheMostRecentWalSeedsAndNoAcknowledgedRowIsLost() throws Exception {
        driver.awaitAllRunning(REPLICAS);
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250)).until(() -> allHealthyThroughTheGateway(REPLICAS));
        String leader = leaderNotOrdinalZero();

        List<WorkloadWriteLog.Write> acknowledged;
        String pid;
        Instant recoveryStarted;
        try (WorkloadSqlWriter writer = new WorkloadSqlWriter(patroni().nodes())) {
            writer.createTable();
            writer.start();
            await().atMost(Duration.ofSeconds(30)).until(() -> writer.log().count() >= 20);
            // the replicas go first: from here on only the leader holds what it acknowledges
            for (int ordinal = 0; ordinal < REPLICAS; ordinal++) {
                if (!slot(ordinal).equals(leader)) {
                    simulator.stop(slot(ordinal));
                }
            }
            await().atMost(Duration.ofSeconds(30)).until(() -> stoppedExcept(leader));
            int alone = writer.log().count();
            await().atMost(Duration.ofSeconds(30)).until(() -> writer.log().count() >= alone + 20);
            simulator.stop(leader);
            await().atMost(Duration.ofSeconds(30)).until(() -> stoppedExcept(null));
            // the simulator's stop command runs beside the CVM's status change: wait until no Patroni answers any more
            await().atMost(Duration.ofSeconds(60)).until(() -> patroni().nodes().stream().allMatch(n -> status(n, "/health") == 0));
            writer.close();
            acknowledged = writer.log().acknowledged();

            ResponseEntity<String> started = driver.admin().postForEntity("/api/replica-sets/" + SET + "/lights-out-recovery",
                    RolloutDriver.json(Map.of("reason", "every member lost power")), String.class);
            assertThat(started.getStatusCode()).as(started.getBody()).isEqualTo(HttpStatus.CREATED);
            pid = RolloutDriver.JSON.readTree(started.getBody()).get("processInstanceId").asText();
            recoveryStarted = Instant.now();

            // lights-out.approval defaults to true: the operator sees the numbers and the proposed seed
            Task approval = await().atMost(Duration.ofMinutes(2)).until(() -> tasks.createTaskQuery().processInstanceId(pid)
                    .taskDefinitionKey("UserTask_ApproveSeed").singleResult(), t -> t != null);
            String report = (String) runtimeService.getVariable(pid, "sequenceReport");
            String proposed = (String) runtimeService.getVariable(pid, "chosenSeed");
            System.out.println("patroni lights-out: old leader " + leader + ", proposed seed " + proposed + "\n" + report);
            assertThat(releases()).as("nothing released before the operator decided").isEmpty();
            assertThat(proposed).as("the member with the most recent WAL:\n" + report).isEqualTo(leader);
            ResponseEntity<String> done = driver.completeTask(approval.getId(), Map.of("approved", Map.of("value", true, "type", "Boolean")));
            assertThat(done.getStatusCode()).isEqualTo(HttpStatus.NO_CONTENT);

            HistoricProcessInstance ended = ended(pid);
            assertThat(ended.getEndActivityId()).as("stages:\n" + rollouts.stages(pid)).isEqualTo("EndEvent_Done");
            assertThat(rollouts.values(pid, "lightsOutResult")).contains("recovered");
            for (int ordinal = 0; ordinal < REPLICAS; ordinal++) {
                if (!slot(ordinal).equals(leader)) {
                    assertThat(rollouts.hookRuns(pid, "rejoin-patroni", slot(ordinal))).as("rejoin of " + slot(ordinal)).isNotEmpty();
                }
            }
            System.out.println("patroni lights-out: releases\n" + String.join("\n", releases()));
            assertThat(releases().get(0)).as("released first, by the recovery").endsWith("[" + leader + "]").contains("POST /release");
            patroni().awaitStreaming(60);
            long took = Duration.between(recoveryStarted, Instant.now()).toSeconds();
            String leaderAfter = await().atMost(Duration.ofSeconds(30)).until(() -> leaderNow(patroni()), n -> n != null);
            Set<Long> stored = writer.idsInTable();
            List<Long> lost = acknowledged.stream().map(WorkloadWriteLog.Write::id).filter(id -> !stored.contains(id)).toList();
            System.out.printf("patroni lights-out: %d rows acknowledged (%d while %s was alone), %d lost; recovery took %d s "
                    + "(with the operator's approval); leader after: %s%n%s%n", acknowledged.size(), acknowledged.size() - alone,
                    leader, lost.size(), took, leaderAfter, rollouts.values(pid, "outcome"));
            assertThat(lost).as("acknowledged rows missing").isEmpty();
        }
    }

    /** The leader, after a switchover away from ordinal 0 if it led: the member with the most recent WAL must not be 0. */
    private String leaderNotOrdinalZero() throws Exception {
        String leader = await().atMost(Duration.ofSeconds(30)).until(() -> leaderNow(patroni()), n -> n != null);
        if (!leader.equals(slot(0))) {
            return leader;
        }
        PatroniClusterFixture.Node node = patroni().node(leader);
        HttpResponse<String> switched = HTTP.send(HttpRequest.newBuilder(URI.create(node.restApi() + "/switchover"))
                .timeout(Duration.ofSeconds(30)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"leader\": \"" + leader + "\", \"candidate\": \"" + slot(1) + "\"}"))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertThat(switched.statusCode()).as(switched.body()).isEqualTo(200);
        await().atMost(Duration.ofSeconds(60)).until(() -> slot(1).equals(leaderNow(patroni())));
        patroni().awaitStreaming(60);
        return slot(1);
    }

    private boolean stoppedExcept(String running) throws Exception {
        for (int ordinal = 0; ordinal < REPLICAS; ordinal++) {
            String status = simulator.cvm(slot(ordinal)).path("status").asText();
            if (!slot(ordinal).equals(running) && !"stopped".equals(status)) {
                return false;
            }
        }
        return true;
    }

    private HistoricProcessInstance ended(String pid) {
        try {
            return rollouts.awaitEnded(pid, Duration.ofMinutes(4));
        } catch (RuntimeException | AssertionError e) {
            System.out.println("lights-out recovery " + pid + " did not end; stages:\n" + rollouts.stages(pid));
            throw e;
        }
    }
}
