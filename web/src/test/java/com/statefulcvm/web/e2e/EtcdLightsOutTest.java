package com.statefulcvm.web.e2e;

import com.statefulcvm.workloads.WorkloadWriteLog;
import com.statefulcvm.workloads.WorkloadFixtures;
import com.statefulcvm.workloads.WorkloadEtcdWriter;
import com.statefulcvm.web.RolloutDriver;
import com.fasterxml.jackson.databind.JsonNode;
import com.statefulcvm.workloads.EtcdClusterFixture;
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
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A real etcd 3.4 cluster behind {@code etcdlo-0..2} loses every member (their CVMs stopped through the Phala API,
 * ordinal 0 first while the writer still gets acknowledgements from the other two), then
 * {@code POST /api/replica-sets/etcdlo/lights-out-recovery} brings the set back: every CVM started with its member held
 * back by the shipped hold-back agent (as an etcd compose runs it: {@code etcd-cluster.sh member-start-held}), each
 * member's raft log read from its data directory by the agent while no etcd runs, the largest (term, index) seeded
 * first with the member it needs for a quorum, the others rejoined one at a time. Every acknowledged put is readable
 * afterwards. Skipped when etcd is not installed.
 * <p>
 * The numbers are read before any member can talk to another, so they diverge by construction: etcdlo-0 stopped first
 * and missed the puts the other two acknowledged after it, so its last raft index is strictly the smallest, whatever
 * the machine's speed. A recovery that seeded it (the lowest ordinal, or the first to answer), or that let the members
 * start before they were asked, fails the test.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.DEFINED_PORT)
@ActiveProfiles({"e2e", "workload-etcd-lights-out"})
@DirtiesContext
@EnabledIf(value = "com.statefulcvm.workloads.WorkloadScripts#etcdInstalled", disabledReason = WorkloadScripts.ETCD_MISSING)
class EtcdLightsOutTest extends WorkloadEndToEnd {

    private static final String SET = "etcdlo";
    @RegisterExtension
    static final ClassFixture<EtcdClusterFixture> ETCD = new ClassFixture<>(WorkloadScripts::assumeEtcd,
            () -> WorkloadFixtures.etcd(WorkloadScripts.dataDirectory("etcd-lights-out"), 3, SET));

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        register(registry, "etcd-lights-out", ETCD.get().heldBackendProperties());
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
    void everyMemberDownThenRecoveredFromTheLargestRaftIndexWithNoAcknowledgedKeyLost() throws Exception {
        driver.awaitAllRunning(3);
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250)).until(() -> allHealthyThroughTheGateway(3));

        List<WorkloadWriteLog.Write> acknowledged;
        Map<String, String> stored;
        Instant recoveryStarted;
        Instant recovered;
        String pid;
        try (WorkloadEtcdWriter writer = new WorkloadEtcdWriter(gatewayRoutes(3))) {
            writer.start();
            await().atMost(Duration.ofSeconds(30)).until(() -> writer.log().count() >= 20);
            // ordinal 0 goes first: the other two keep a quorum and acknowledge more puts than it ever saw
            simulator.stop(slot(0));
            await().atMost(Duration.ofSeconds(30)).until(() -> "stopped".equals(simulator.cvm(slot(0)).path("status").asText()));
            rollouts.awaitLastBackendResult(slot(0), "stop:ok");   // its etcd is down, not only its CVM's status
            int afterFirst = writer.log().count();
            await().atMost(Duration.ofSeconds(30)).until(() -> writer.log().count() >= afterFirst + 20);
            simulator.stop(slot(1));
            simulator.stop(slot(2));
            await().atMost(Duration.ofSeconds(30)).until(() -> "stopped".equals(simulator.cvm(slot(1)).path("status").asText())
                    && "stopped".equals(simulator.cvm(slot(2)).path("status").asText()));
            writer.close();
            acknowledged = writer.log().acknowledged();

            ResponseEntity<String> started = driver.admin().postForEntity("/api/replica-sets/" + SET + "/lights-out-recovery",
                    RolloutDriver.json(Map.of("reason", "power loss in the test")), String.class);
            assertThat(started.getStatusCode()).as(started.getBody()).isEqualTo(HttpStatus.CREATED);
            pid = RolloutDriver.JSON.readTree(started.getBody()).get("processInstanceId").asText();
            recoveryStarted = Instant.now();
            ResponseEntity<String> second = driver.admin().postForEntity("/api/replica-sets/" + SET + "/lights-out-recovery", null, String.class);
            assertThat(second.getStatusCode()).isEqualTo(HttpStatus.CONFLICT);
            ResponseEntity<String> scale = driver.admin().postForEntity("/api/replica-sets/" + SET + "/scale",
                    RolloutDriver.json(Map.of("replicas", 4)), String.class);
            assertThat(scale.getStatusCode()).as(scale.getBody()).isEqualTo(HttpStatus.CONFLICT);

            HistoricProcessInstance ended = ended(pid);
            recovered = Instant.now();
            assertThat(ended.getEndActivityId()).as("stages:\n" + rollouts.stages(pid)).isEqualTo("EndEvent_Done");
            assertThat(rollouts.values(pid, "lightsOutResult")).contains("recovered");
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250)).until(() -> allHealthyThroughTheGateway(3));
            stored = writer.readAll();
        }

        String outcome = (String) rollouts.values(pid, "outcome").get(rollouts.values(pid, "outcome").size() - 1);
        @SuppressWarnings("unchecked")
        Map<String, Object> numbers = (Map<String, Object>) rollouts.values(pid, "sequenceNumbers").get(rollouts.values(pid, "sequenceNumbers").size() - 1);
        String seed = (String) rollouts.values(pid, "seed").get(0);
        long largest = numbers.values().stream().mapToLong(n -> ((Number) n).longValue()).max().orElseThrow();
        assertThat(numbers).as("every member answered").containsOnlyKeys(slot(0), slot(1), slot(2));
        assertThat(((Number) numbers.get(slot(0))).longValue()).as("etcdlo-0 missed the last puts: the numbers diverge " + numbers)
                .isLessThan(largest);
        assertThat(((Number) numbers.get(seed)).longValue()).as("the seed has the largest raft index: " + numbers).isEqualTo(largest);
        assertThat(seed).as("not the member that stopped first").isNotEqualTo(slot(0));
        assertThat(ETCD.get().releases(seed)).as("the seed released by the recovery, before any other member, told it is the seed")
                .hasSize(1).allMatch(line -> line.contains("POST /release") && line.contains("as the seed"));
        // the seed's quorum partner is released by the recovery, told whom it joins; the last member may release itself
        // once the two report a healthy cluster (the agent's own rule), which is no release by us
        List<String> toldToFollow = List.of(slot(0), slot(1), slot(2)).stream().filter(m -> !m.equals(seed))
                .flatMap(m -> ETCD.get().releases(m).stream()).filter(line -> line.contains("POST /release")).toList();
        assertThat(toldToFollow).as("followers released by the recovery").isNotEmpty()
                .allMatch(line -> line.contains("as a follower of " + seed + ", joining " + seed));
        for (String member : List.of(slot(0), slot(1), slot(2))) {
            assertThat(ETCD.get().releases(member)).as(member + " released once").hasSize(1);
            assertThat(releaseTime(member)).as(member + " released after the seed").isAfterOrEqualTo(releaseTime(seed));
        }
        for (String follower : List.of(slot(0), slot(1), slot(2))) {
            if (!follower.equals(seed)) {
                assertThat(rollouts.hookRuns(pid, "rejoin-etcd", follower)).as("rejoin of " + follower).isNotEmpty();
            }
        }
        List<String> lost = acknowledged.stream().map(w -> WorkloadEtcdWriter.key(w.id())).filter(k -> !stored.containsKey(k)).toList();
        System.out.printf("etcd lights-out: %d puts acknowledged before every member stopped, %d lost; recovery took %d s; "
                        + "seed %s%n%s%n", acknowledged.size(), lost.size(), Duration.between(recoveryStarted, recovered).toSeconds(),
                seed, outcome);
        assertThat(lost).as("acknowledged puts missing").isEmpty();
        JsonNode status = RolloutDriver.JSON.readTree(driver.admin().getForObject("/api/replica-sets/" + SET, String.class));
        assertThat(status.get("replicas").asInt()).isEqualTo(3);
    }

    private Instant releaseTime(String member) {
        return java.time.OffsetDateTime.parse(ETCD.get().releases(member).get(0).split(" ", 2)[0]).toInstant();
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
