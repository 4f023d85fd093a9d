package com.statefulcvm.web.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.statefulcvm.web.RolloutDriver;
import com.statefulcvm.workloads.EtcdClusterFixture;
import com.statefulcvm.workloads.WorkloadEtcdMembers;
import com.statefulcvm.workloads.WorkloadEtcdWriter;
import com.statefulcvm.workloads.WorkloadFixtures;
import com.statefulcvm.workloads.WorkloadLeaderWatch;
import com.statefulcvm.workloads.WorkloadScripts;
import com.statefulcvm.workloads.WorkloadWriteLog;
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
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A real etcd member whose CVM is lost with its disk is replaced through heal.bpmn by a new, empty member. The simulated
 * CVMs {@code etcdrepl-0..2} are backed by a real etcd 3.4 cluster ({@link EtcdClusterFixture}); deleting a CVM stops its
 * member and wipes its data, as deleting a CVM on Phala loses its disk. The heal (onDataLoss REPLACE) removes the old
 * member through another one (leave-etcd), adds the slot's peer URL as a learner before the new CVM starts (add-etcd),
 * and promotes it once in sync (join-etcd). Shown, from etcd's own member list: the member rejoined under a new member
 * ID, was a learner before it voted, and every put acknowledged during the loss and the replacement is readable.
 * Without the leave and add (the etcd descriptor overridden with replacement-is-new-member false) the empty member
 * starts under its old ID and etcd refuses it ("member ... has already been bootstrapped", fatal): the heal never gets a
 * healthy member and this test fails at its deadline. Skipped when etcd is not installed.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.DEFINED_PORT)
@ActiveProfiles({"e2e", "workload-etcd-replace"})
@DirtiesContext
@EnabledIf(value = "com.statefulcvm.workloads.WorkloadScripts#etcdInstalled", disabledReason = WorkloadScripts.ETCD_MISSING)
class EtcdReplacementTest extends WorkloadEndToEnd {

    private static final String SET = "etcdrepl";
    @RegisterExtension
    static final ClassFixture<EtcdClusterFixture> ETCD = new ClassFixture<>(WorkloadScripts::assumeEtcd,
            () -> WorkloadFixtures.etcd(WorkloadScripts.dataDirectory("etcd-replace"), 3, SET));

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        register(registry, "etcd-replace", ETCD.get().backendProperties());
        String url = ETCD.get().member(SET + "-1").peerUrl().toString();
        registry.add("test.etcd.peer-url.1", () -> url);
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
    void aMemberLostWithItsDiskIsReplacedByANewLearnerPromotedInSyncAndNoAcknowledgedKeyIsLost() throws Exception {
        driver.awaitAllRunning(3);
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250)).until(() -> allHealthyThroughTheGateway(3));
        EtcdClusterFixture etcd = ETCD.get();
        Map<String, String> before = WorkloadEtcdMembers.memberIds(etcd);
        assertThat(before).containsOnlyKeys(SET + "-0", SET + "-1", SET + "-2");
        String oldInstance = simulator.cvm(SET + "-1").path("instance_id").asText();

        try (WorkloadEtcdWriter writer = new WorkloadEtcdWriter(List.of(etcd.member(SET + "-0").clientUrl(),
                etcd.member(SET + "-1").clientUrl(), etcd.member(SET + "-2").clientUrl()));
             WorkloadLeaderWatch members = new WorkloadLeaderWatch(() -> WorkloadEtcdMembers.membership(etcd))) {
            writer.start();
            members.start();
            await().atMost(Duration.ofSeconds(30)).until(() -> writer.log().count() >= 20);

            simulator.delete(SET + "-1");
            await().atMost(Duration.ofSeconds(30)).until(() -> simulator.cvmOrNull(SET + "-1") == null);
            rollouts.awaitLastBackendResult(SET + "-1", "delete:ok");

            ResponseEntity<String> started = driver.admin().postForEntity("/api/replica-sets/" + SET + "/instances/1/heal",
                    RolloutDriver.json(Map.of("reason", "the CVM was lost with its disk")), String.class);
            assertThat(started.getStatusCode()).as(started.getBody()).isEqualTo(HttpStatus.CREATED);
            String heal = RolloutDriver.JSON.readTree(started.getBody()).get("processInstanceId").asText();
            HistoricProcessInstance ended;
            try {
                ended = rollouts.awaitEnded(heal, Duration.ofMinutes(4));
            } catch (RuntimeException | AssertionError e) {
                System.out.println("heal " + heal + " did not end; stages:\n" + rollouts.stages(heal));
                throw e;
            }
            assertThat(ended.getEndActivityId()).as("heal; stages:\n" + rollouts.stages(heal)).isEqualTo("EndEvent_Replaced");
            assertThat(rollouts.hookRuns(heal, "leave-etcd", SET + "-1")).isNotEmpty();
            assertThat(rollouts.hookRuns(heal, "add-etcd", SET + "-1")).isNotEmpty();
            assertThat(rollouts.hookRuns(heal, "join-etcd", SET + "-1")).isNotEmpty();

            JsonNode replacement = simulator.cvm(SET + "-1");
            assertThat(replacement.path("instance_id").asText()).as("a new CVM").isNotEqualTo(oldInstance);
            Map<String, String> after = WorkloadEtcdMembers.memberIds(etcd);
            assertThat(after).containsOnlyKeys(SET + "-0", SET + "-1", SET + "-2");
            assertThat(after.get(SET + "-1")).as("the new member's ID").isNotEqualTo(before.get(SET + "-1"));
            assertThat(after.get(SET + "-0")).isEqualTo(before.get(SET + "-0"));
            assertThat(after.get(SET + "-2")).isEqualTo(before.get(SET + "-2"));
            assertThat(WorkloadEtcdMembers.membership(etcd)).as("three voters").isEqualTo(SET + "-0," + SET + "-1," + SET + "-2");
            List<String> seen = members.changes().stream().map(WorkloadLeaderWatch.Change::leader).toList();
            assertThat(seen).as("membership over time").anyMatch(m -> m != null && m.contains(SET + "-1(learner)"));

            int atEnd = writer.log().count();
            await().atMost(Duration.ofSeconds(30)).until(() -> writer.log().count() >= atEnd + 10);
            writer.close();
            members.close();
            List<WorkloadWriteLog.Write> acknowledged = writer.log().acknowledged();
            Map<String, String> stored = writer.readAll();
            List<String> lost = acknowledged.stream().map(w -> WorkloadEtcdWriter.key(w.id())).filter(k -> !stored.containsKey(k)).toList();
            System.out.printf("etcd replacement: %s ID %s -> %s, heal took %d s; %d puts acknowledged (%d failed attempts), %d lost"
                            + "%nmembership over time: %s%n", SET + "-1", before.get(SET + "-1"), after.get(SET + "-1"),
                    Duration.between(ended.getStartTime().toInstant(), ended.getEndTime().toInstant()).toSeconds(),
                    acknowledged.size(), writer.log().failures(), lost.size(), members.changes());
            assertThat(lost).as("acknowledged puts missing").isEmpty();
        }
    }
}
