package com.statefulcvm.web.e2e;

import com.statefulcvm.workloads.WorkloadWriteLog;
import com.statefulcvm.workloads.WorkloadLeaderWatch;
import com.statefulcvm.workloads.WorkloadFixtures;
import com.statefulcvm.workloads.WorkloadEtcdWriter;
import com.statefulcvm.workloads.WorkloadEtcdMembers;
import com.fasterxml.jackson.databind.JsonNode;
import com.statefulcvm.workloads.EtcdClusterFixture;
import com.statefulcvm.workloads.WorkloadScripts;
import org.camunda.bpm.engine.history.HistoricProcessInstance;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.test.context.SpringBootTest;
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
 * Issue 12, "must show": a real etcd cluster scaled 3 → 5 → 3 through {@code POST /api/replica-sets/{name}/scale} with
 * a writer running. The simulated CVMs {@code etcdscale-0..4} are backed by the members of a real etcd 3.4 cluster
 * ({@link EtcdClusterFixture}: 0..2 started, 3 and 4 prepared, their peer URLs in the set's {@code scaling.peer-urls}).
 * A watch asks etcd itself for its membership every 50 ms. Shown: each new member was first a learner, then a voter
 * (promoted once in sync), one at a time; on the way down 4 and 3 were removed and their CVMs deleted; every
 * acknowledged put is readable. Skipped when etcd is not installed.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.DEFINED_PORT)
@ActiveProfiles({"e2e", "workload-etcd-scale"})
@DirtiesContext
@EnabledIf(value = "com.statefulcvm.workloads.WorkloadScripts#etcdInstalled", disabledReason = WorkloadScripts.ETCD_MISSING)
class EtcdScaleTest extends WorkloadEndToEnd {

    private static final String SET = "etcdscale";
    @RegisterExtension
    static final ClassFixture<EtcdClusterFixture> ETCD = new ClassFixture<>(WorkloadScripts::assumeEtcd, () -> {
        EtcdClusterFixture etcd = WorkloadFixtures.etcd(WorkloadScripts.dataDirectory("etcd-scale"), 3, SET);
        etcd.prepare(SET + "-3");
        etcd.prepare(SET + "-4");
        return etcd;
    });

    private static EtcdClusterFixture etcd() {
        return ETCD.get();
    }

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        register(registry, "etcd-scale", ETCD.get().backendProperties());
        for (int ordinal = 3; ordinal <= 4; ordinal++) {
            String url = ETCD.get().member(SET + "-" + ordinal).peerUrl().toString();
            registry.add("test.etcd.peer-url." + ordinal, () -> url);
        }
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
    void scaledThreeToFiveToThreeWithLearnersPromotedAndNoAcknowledgedKeyLost() throws Exception {
        driver.awaitAllRunning(3);
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250)).until(() -> allHealthyThroughTheGateway(3));
        WorkloadScales scales = new WorkloadScales(http, SET);

        try (WorkloadEtcdWriter writer = new WorkloadEtcdWriter(gatewayRoutes(3));
             WorkloadLeaderWatch members = new WorkloadLeaderWatch(() -> WorkloadEtcdMembers.membership(etcd()))) {
            writer.start();
            members.start();
            await().atMost(Duration.ofSeconds(30)).until(() -> writer.log().count() >= 20);

            Instant upStarted = Instant.now();
            String up = scales.start(5);
            HistoricProcessInstance upEnded = ended(up);
            Instant upFinished = Instant.now();
            assertThat(upEnded.getEndActivityId()).as("scale up; stages:\n" + rollouts.stages(up)).isEqualTo("EndEvent_Scaled");
            assertThat(WorkloadEtcdMembers.membership(etcd())).isEqualTo(String.join(",", names(0, 1, 2, 3, 4)));
            JsonNode five = scales.status();
            assertThat(five.get("replicas").asInt()).isEqualTo(5);
            assertThat(five.path("scaling").path("fileReplicas").asInt()).isEqualTo(3);
            assertThat(five.path("scaling").path("scaledBy").asText()).isEqualTo("admin");

            // each new member: added while its CVM did not run yet, a learner before it voted, and one at a time
            List<String> seen = members.changes().stream().map(WorkloadLeaderWatch.Change::leader).toList();
            assertThat(firstIndexContaining(seen, SET + "-3(learner)")).as("membership over time: " + seen)
                    .isLessThan(firstIndexOf(seen, String.join(",", names(0, 1, 2, 3))));
            assertThat(firstIndexContaining(seen, SET + "-4(learner)")).as("membership over time: " + seen)
                    .isGreaterThan(firstIndexOf(seen, String.join(",", names(0, 1, 2, 3))))
                    .isLessThan(firstIndexOf(seen, String.join(",", names(0, 1, 2, 3, 4))));
            assertThat(seen).as("never two learners at once").noneMatch(m -> m != null && m.split("\\(learner\\)", -1).length > 2);

            Instant downStarted = Instant.now();
            String down = scales.start(3);
            HistoricProcessInstance downEnded = ended(down);
            Instant downFinished = Instant.now();
            assertThat(downEnded.getEndActivityId()).as("scale down; stages:\n" + rollouts.stages(down)).isEqualTo("EndEvent_Scaled");
            assertThat(WorkloadEtcdMembers.membership(etcd())).isEqualTo(String.join(",", names(0, 1, 2)));
            assertThat(rollouts.hookRuns(down, "leave-etcd", SET + "-4")).isNotEmpty();
            assertThat(rollouts.hookRuns(down, "drain-etcd", SET + "-4")).isNotEmpty();
            JsonNode three = scales.status();
            assertThat(three.get("replicas").asInt()).isEqualTo(3);
            await().atMost(Duration.ofSeconds(30)).until(() -> simulator.cvmOrNull(SET + "-3") == null && simulator.cvmOrNull(SET + "-4") == null);

            int atEnd = writer.log().count();
            await().atMost(Duration.ofSeconds(30)).until(() -> writer.log().count() >= atEnd + 10);
            writer.close();
            members.close();

            List<WorkloadWriteLog.Write> acknowledged = writer.log().acknowledged();
            Map<String, String> stored = writer.readAll();
            List<String> lost = acknowledged.stream().map(w -> WorkloadEtcdWriter.key(w.id())).filter(k -> !stored.containsKey(k)).toList();
            System.out.printf("etcd scale: 3 -> 5 took %d s, 5 -> 3 took %d s; %d puts acknowledged (%d failed attempts), %d lost; "
                            + "longest write gap up %d ms, down %d ms%nmembership over time: %s%n",
                    Duration.between(upStarted, upFinished).toSeconds(), Duration.between(downStarted, downFinished).toSeconds(),
                    acknowledged.size(), writer.log().failures(), lost.size(),
                    writer.log().longestGap(upStarted, upFinished).length().toMillis(),
                    writer.log().longestGap(downStarted, downFinished).length().toMillis(), members.changes());
            assertThat(lost).as("acknowledged puts missing").isEmpty();
        }
    }

    private HistoricProcessInstance ended(String pid) {
        try {
            return rollouts.awaitEnded(pid, Duration.ofMinutes(4));
        } catch (RuntimeException | AssertionError e) {
            System.out.println("scale " + pid + " did not end; stages:\n" + rollouts.stages(pid));
            throw e;
        }
    }

    private static List<String> names(int... ordinals) {
        return java.util.Arrays.stream(ordinals).mapToObj(o -> SET + "-" + o).sorted().toList();
    }

    private static int firstIndexOf(List<String> seen, String membership) {
        int index = seen.indexOf(membership);
        assertThat(index).as(membership + " seen in " + seen).isNotNegative();
        return index;
    }

    private static int firstIndexContaining(List<String> seen, String part) {
        for (int i = 0; i < seen.size(); i++) {
            if (seen.get(i) != null && seen.get(i).contains(part)) {
                return i;
            }
        }
        throw new AssertionError(part + " never seen in " + seen);
    }
}
