package com.statefulcvm.web.e2e;

import com.statefulcvm.web.RolloutDriver;
import com.statefulcvm.workloads.GaleraClusterFixture;
import com.statefulcvm.workloads.WorkloadFixtures;
import com.statefulcvm.workloads.WorkloadScripts;
import org.camunda.bpm.engine.history.HistoricProcessInstance;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A {@code galera} set of three CVMs backed by a real MariaDB Galera cluster, each node run by the shipped hold-back
 * agent (as a compose with it runs: {@code galera-cluster.sh member-start-held}), loses every node: two stopped through
 * the Phala API while rows are acknowledged by the others, the last (holding the most) crashed. Then
 * {@code POST /api/replica-sets/galeralo/lights-out-recovery} runs lights-out-recovery.bpmn with the type's own
 * procedures (sequence-galera: the agent's seqno, from grastate.dat or mariadbd --wsrep-recover; rejoin-galera: the
 * agent's Synced health): the node with the highest seqno, not ordinal 0, is released as the seed (bootstrapping with
 * --wsrep-new-cluster), the others follow, and every acknowledged row is on every node. Before that, a rolling restart
 * through rollout.bpmn restarts one node at a time (each rejoins by IST, released by its agent once a peer runs, and
 * is Synced before the next goes down) while a writer keeps inserting: no acknowledged row is lost. Skipped unless
 * MariaDB, Galera and rsync are installed and the tests run as root.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.DEFINED_PORT)
@ActiveProfiles({"e2e", "workload-galera-lights-out"})
@DirtiesContext
@EnabledIf(value = "com.statefulcvm.workloads.WorkloadScripts#galeraInstalled", disabledReason = WorkloadScripts.GALERA_MISSING)
@org.junit.jupiter.api.TestMethodOrder(org.junit.jupiter.api.MethodOrderer.OrderAnnotation.class)
class GaleraRecoveryEndToEndTest extends WorkloadEndToEnd {

    private static final String SET = "galeralo";
    @RegisterExtension
    static final ClassFixture<GaleraClusterFixture> GALERA = new ClassFixture<>(
            () -> org.junit.jupiter.api.Assumptions.assumeTrue(WorkloadScripts.galeraInstalled(), WorkloadScripts.GALERA_MISSING),
            () -> WorkloadFixtures.galera(WorkloadScripts.dataDirectory("galera-recovery"), 3, SET).holdAll());
    private final List<Integer> acknowledged = java.util.Collections.synchronizedList(new ArrayList<>());
    /** The members that refused a client write as a drained node does (error 1047), one entry per refusal. */
    private final List<String> refusedWhileDrained = java.util.Collections.synchronizedList(new ArrayList<>());
    /** Row ids across both tests (one table): each test checks its own acknowledged rows. */
    private static final java.util.concurrent.atomic.AtomicInteger NEXT_ID = new java.util.concurrent.atomic.AtomicInteger(1);

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        register(registry, "galera-recovery", GALERA.get().heldBackendProperties());
    }

    @Override
    String set() {
        return SET;
    }

    @Override
    int workloadPort() {
        return WorkloadScripts.HOLD_PORT;
    }

    @Test
    @org.junit.jupiter.api.Order(1)
    void aRollingRestartRestartsOneNodeAtATimeAndNoAcknowledgedRowIsLost() throws Exception {
        GaleraClusterFixture galera = GALERA.get();
        driver.awaitAllRunning(3);
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250)).until(() -> allHealthyThroughTheGateway(3));
        createTable(galera);
        Map<String, Integer> releasesBefore = new java.util.HashMap<>();
        for (String member : List.of(slot(0), slot(1), slot(2))) {
            releasesBefore.put(member, galera.releases(member).size());
        }
        java.util.concurrent.atomic.AtomicBoolean writing = new java.util.concurrent.atomic.AtomicBoolean(true);
        Thread writer = new Thread(() -> {
            for (int turn = 0; writing.get(); turn++) {
                write(slot(turn % 3), 1);
            }
        }, "galera-writer");
        writer.start();
        String pid = driver.startRollout(currentCompose(), Map.of("minimalAction", "RESTART"));
        HistoricProcessInstance ended;
        try {
            ended = rollouts.awaitEnded(pid, Duration.ofMinutes(6));
        } finally {
            writing.set(false);
            writer.join();
        }
        assertThat(ended.getEndActivityId()).as("stages:\n" + rollouts.stages(pid)).isEqualTo("EndEvent_RolloutCompleted");
        for (String member : List.of(slot(0), slot(1), slot(2))) {
            assertThat(galera.releases(member)).as(member + " restarted once, joining the nodes that ran")
                    .hasSize(releasesBefore.get(member) + 1).last().asString().contains("runs: joining it");
        }
        for (String member : List.of(slot(0), slot(1), slot(2))) {
            List<HistoricProcessInstance> drains = rollouts.hookRuns(pid, "drain-galera", member);
            assertThat(drains).as("drain of " + member).hasSize(1);
            assertThat(rollouts.values(drains.get(0).getId(), "stage")).as("drain of " + member).last().asString()
                    .startsWith(member + " drained: wsrep_desync ON, client queries refused, state Donor/Desynced, receive queue 0");
            assertThat(rollouts.hookRuns(pid, "rejoin-galera", member)).as("rejoin of " + member).hasSize(1);
        }
        assertThat(refusedWhileDrained).as("a drained node refuses client writes (1047), the others take them").isNotEmpty();
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250)).until(() -> allHealthyThroughTheGateway(3));
        for (String member : List.of(slot(0), slot(1), slot(2))) {
            assertThat(galera.sql(member, "SELECT @@wsrep_desync, @@wsrep_reject_queries").requireSuccess("read " + member)
                    .output().strip()).as(member + " takes queries again").isEqualTo("0\tNONE");
        }
        List<Integer> lost = lost(galera);
        System.out.printf("galera rolling restart: %d rows acknowledged during it, %d lost; writes refused by drained nodes: %s%n",
                acknowledged.size(), lost.size(), refusedWhileDrained.stream().collect(java.util.stream.Collectors.groupingBy(m -> m,
                        java.util.TreeMap::new, java.util.stream.Collectors.counting())));
        assertThat(acknowledged).as("rows acknowledged while the nodes restarted").hasSizeGreaterThan(20);
        assertThat(lost).as("acknowledged rows missing").isEmpty();
    }

    private static void createTable(GaleraClusterFixture galera) {
        galera.sql("galeralo-0", "CREATE DATABASE IF NOT EXISTS t; CREATE TABLE IF NOT EXISTS t.w (id INT PRIMARY KEY)").requireSuccess("create");
    }

    @Test
    @org.junit.jupiter.api.Order(2)
    void everyNodeDownThenSeededFromTheHighestSeqnoWithNoAcknowledgedRowLost() throws Exception {
        GaleraClusterFixture galera = GALERA.get();
        driver.awaitAllRunning(3);
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250)).until(() -> allHealthyThroughTheGateway(3));
        createTable(galera);

        write(slot(2), 15);
        simulator.stop(slot(0));
        await().atMost(Duration.ofSeconds(90)).until(() -> "stopped".equals(simulator.cvm(slot(0)).path("status").asText()));
        rollouts.awaitLastBackendResult(slot(0), "stop:ok");
        write(slot(1), 15);
        simulator.stop(slot(2));
        await().atMost(Duration.ofSeconds(90)).until(() -> "stopped".equals(simulator.cvm(slot(2)).path("status").asText()));
        rollouts.awaitLastBackendResult(slot(2), "stop:ok");
        write(slot(1), 15);
        assertThat(http.postForEntity("/simulator/_admin/cvms/" + slot(1) + "/crash", null, String.class).getStatusCode().is2xxSuccessful()).isTrue();
        rollouts.awaitLastBackendResult(slot(1), "kill:ok");

        ResponseEntity<String> started = driver.admin().postForEntity("/api/replica-sets/" + SET + "/lights-out-recovery",
                RolloutDriver.json(Map.of("reason", "power loss in the test")), String.class);
        assertThat(started.getStatusCode()).as(started.getBody()).isEqualTo(HttpStatus.CREATED);
        String pid = RolloutDriver.JSON.readTree(started.getBody()).get("processInstanceId").asText();
        HistoricProcessInstance ended;
        try {
            ended = rollouts.awaitEnded(pid, Duration.ofMinutes(6));
        } catch (RuntimeException | AssertionError e) {
            System.out.println("lights-out recovery " + pid + " did not end; stages:\n" + rollouts.stages(pid));
            throw e;
        }
        assertThat(ended.getEndActivityId()).as("stages:\n" + rollouts.stages(pid)).isEqualTo("EndEvent_Done");

        @SuppressWarnings("unchecked")
        Map<String, Object> numbers = (Map<String, Object>) rollouts.values(pid, "sequenceNumbers").get(rollouts.values(pid, "sequenceNumbers").size() - 1);
        String seed = (String) rollouts.values(pid, "seed").get(0);
        assertThat(numbers).as("every node answered its seqno").containsOnlyKeys(slot(0), slot(1), slot(2));
        long largest = numbers.values().stream().mapToLong(n -> ((Number) n).longValue()).max().orElseThrow();
        assertThat(seed).as("the last node down, crashed, its seqno recovered: " + numbers).isEqualTo(slot(1));
        assertThat(((Number) numbers.get(seed)).longValue()).isEqualTo(largest);
        assertThat(galera.releases(seed)).as("the seed released by the recovery, told it is the seed").last().asString()
                .contains("POST /release").contains("as the seed").contains("safe_to_bootstrap: 1");
        for (String follower : List.of(slot(0), slot(2))) {
            assertThat(rollouts.hookRuns(pid, "rejoin-galera", follower)).as("rejoin of " + follower).isNotEmpty();
        }
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250)).until(() -> allHealthyThroughTheGateway(3));
        assertThat(galera.status(slot(0), "wsrep_cluster_size")).isEqualTo("3");
        List<Integer> lost = lost(galera);
        System.out.printf("galera lights-out through the procedure: seqnos %s, seed %s, %d rows acknowledged, %d lost%n",
                numbers, seed, acknowledged.size(), lost.size());
        assertThat(lost).as("acknowledged rows missing").isEmpty();
    }

    private void write(String member, int rows) {
        for (int i = 0; i < rows; i++) {
            int id = NEXT_ID.getAndIncrement();
            WorkloadScripts.Result insert = GALERA.get().sql(member, "INSERT INTO t.w VALUES (" + id + ")");
            if (insert.exitCode() == 0) {
                acknowledged.add(id);
            } else if (insert.output().contains("WSREP has not yet prepared node for application use")) {
                refusedWhileDrained.add(member);
            }
        }
    }

    private List<Integer> lost(GaleraClusterFixture galera) {
        Set<Integer> missing = new TreeSet<>();
        for (String member : List.of(slot(0), slot(1), slot(2))) {
            Set<Integer> stored = new TreeSet<>();
            galera.sql(member, "SELECT id FROM t.w").requireSuccess("read " + member).output().lines()
                    .filter(l -> l.matches("\\d+")).forEach(l -> stored.add(Integer.parseInt(l)));
            acknowledged.stream().filter(id -> !stored.contains(id)).forEach(missing::add);
        }
        return new ArrayList<>(missing);
    }
}
