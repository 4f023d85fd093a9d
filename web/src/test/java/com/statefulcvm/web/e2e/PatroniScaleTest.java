package com.statefulcvm.web.e2e;

import com.statefulcvm.workloads.WorkloadWriteLog;
import com.statefulcvm.workloads.WorkloadSqlWriter;
import com.statefulcvm.workloads.WorkloadFixtures;
import com.statefulcvm.web.RolloutDriver;
import com.fasterxml.jackson.databind.JsonNode;
import com.statefulcvm.workloads.PatroniClusterFixture;
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

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Issue 12, "must show": a real Patroni + PostgreSQL set scaled 3 → 4 → 3 → 4 through
 * {@code POST /api/replica-sets/{name}/scale}, with a writer inserting a row every 100 ms through the primary. The CVM
 * {@code pgdemo-3} is backed by a node the fixture prepared (not started). Shown: when the scale up ends, the leader's
 * replication list has {@code pgdemo-3} streaming; the scale down lets it go (its member key leaves {@code /cluster})
 * and retains its CVM (stopped, identity kept; the set's status lists it as retained); the next scale up brings the
 * same instance back with its own data directory (not a new clone), streaming, with the rows written while it was
 * away; no acknowledged row is lost. Skipped when Patroni or PostgreSQL is not installed.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.DEFINED_PORT)
@ActiveProfiles({"e2e", "workload-patroni"})
@DirtiesContext
@EnabledIf(value = "com.statefulcvm.workloads.WorkloadScripts#patroniInstalled", disabledReason = WorkloadScripts.PATRONI_MISSING)
class PatroniScaleTest extends PatroniEndToEnd {

    private static final String NEW = SET + "-3";
    @RegisterExtension
    static final ClassFixture<PatroniClusterFixture> PATRONI = new ClassFixture<>(WorkloadScripts::assumePatroni, () -> {
        PatroniClusterFixture patroni = WorkloadFixtures.patroni(WorkloadScripts.dataDirectory("patroni-scale"), REPLICAS, SET);
        patroni.prepare(NEW);
        return patroni;
    });

    private static PatroniClusterFixture patroni() {
        return PATRONI.get();
    }

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        register(registry, "patroni-scale", PATRONI.get().backendProperties());
    }

    @Test
    void aNewReplicaStreamsBeforeTheScaleEndsAndARetainedOneComesBackWithItsData() throws Exception {
        driver.awaitAllRunning(REPLICAS);
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250)).until(() -> allHealthyThroughTheGateway(REPLICAS));
        WorkloadScales scales = new WorkloadScales(http, SET);
        PatroniClusterFixture.Node added = patroni().node(NEW);
        List<String> figures = new ArrayList<>();

        try (WorkloadSqlWriter writer = new WorkloadSqlWriter(patroni().nodes().subList(0, REPLICAS))) {
            writer.createTable();
            writer.start();
            await().atMost(Duration.ofSeconds(30)).until(() -> writer.log().count() >= 20);

            // 3 -> 4: a new CVM, a new member that clones the leader and streams before the procedure ends
            Instant started = Instant.now();
            HistoricProcessInstance up = ended(scales.start(4));
            String streamingAtEnd = replicationState(NEW);
            figures.add("3 -> 4 in " + Duration.between(started, Instant.now()).toSeconds() + " s, " + NEW + " at the end: " + streamingAtEnd);
            assertThat(up.getEndActivityId()).as("scale up; stages:\n" + rollouts.stages(up.getId())).isEqualTo("EndEvent_Scaled");
            assertThat(streamingAtEnd).as("the leader's replication list at the end of the scale").isEqualTo("streaming");
            String instanceId = simulator.cvm(NEW).path("instance_id").asText();
            Object dataDir = dataDirectoryIdentity();
            long beforeRetain = writer.log().count();
            assertThat(Long.parseLong(WorkloadSqlWriter.queryOne(added, "SELECT count(*) FROM " + WorkloadSqlWriter.TABLE)))
                    .as("rows on the new replica").isPositive();

            // 4 -> 3: drained, its Patroni stops (its member key goes), its CVM is stopped and retained
            started = Instant.now();
            HistoricProcessInstance down = ended(scales.start(3));
            figures.add("4 -> 3 in " + Duration.between(started, Instant.now()).toSeconds() + " s");
            assertThat(down.getEndActivityId()).as("scale down; stages:\n" + rollouts.stages(down.getId())).isEqualTo("EndEvent_Scaled");
            assertThat(rollouts.hookRuns(down.getId(), "drain-patroni", NEW)).isNotEmpty();
            await().atMost(Duration.ofSeconds(30)).until(() -> !clusterMembers().contains(NEW));
            assertThat(replicationState(NEW)).as(NEW + " in the leader's replication list").isNull();
            assertThat(simulator.cvm(NEW).path("status").asText()).isEqualTo("stopped");
            JsonNode three = scales.status();
            assertThat(three.get("replicas").asInt()).isEqualTo(3);
            JsonNode retained = three.path("scaling").path("retainedSlots");
            assertThat(retained).hasSize(1);
            assertThat(retained.get(0).path("name").asText()).isEqualTo(NEW);
            assertThat(retained.get(0).path("instanceId").asText()).isEqualTo(instanceId);
            await().atMost(Duration.ofSeconds(30)).until(() -> writer.log().count() >= beforeRetain + 30);
            long writtenWhileAway = writer.log().acknowledged().get(writer.log().count() - 1).id();

            // 3 -> 4 again: the retained slot comes back as the same instance, on its own data, and streams
            started = Instant.now();
            HistoricProcessInstance again = ended(scales.start(4));
            String streamingAgain = replicationState(NEW);
            figures.add("3 -> 4 (retained slot back) in " + Duration.between(started, Instant.now()).toSeconds() + " s, " + NEW
                    + " at the end: " + streamingAgain);
            assertThat(again.getEndActivityId()).as("scale up again; stages:\n" + rollouts.stages(again.getId())).isEqualTo("EndEvent_Scaled");
            assertThat(streamingAgain).isEqualTo("streaming");
            assertThat(simulator.cvm(NEW).path("instance_id").asText()).as("the same identity").isEqualTo(instanceId);
            assertThat(dataDirectoryIdentity()).as("the same data directory, not a new clone").isEqualTo(dataDir);
            assertThat(scales.status().path("scaling").path("retainedSlots").isMissingNode()).isTrue();
            await().atMost(Duration.ofSeconds(30)).until(() -> "1".equals(WorkloadSqlWriter.queryOne(added,
                    "SELECT count(*)::text FROM " + WorkloadSqlWriter.TABLE + " WHERE id = " + writtenWhileAway)));

            int atEnd = writer.log().count();
            await().atMost(Duration.ofSeconds(30)).until(() -> writer.log().count() >= atEnd + 10);
            writer.close();
            List<WorkloadWriteLog.Write> acknowledged = writer.log().acknowledged();
            Set<Long> stored = writer.idsInTable();
            List<Long> lost = acknowledged.stream().map(WorkloadWriteLog.Write::id).filter(id -> !stored.contains(id)).toList();
            System.out.printf("patroni scale: %s; %d rows acknowledged (%d failed attempts), %d lost; instance %s kept, data directory %s kept%n",
                    String.join("; ", figures), acknowledged.size(), writer.log().failures(), lost.size(), instanceId, dataDir);
            assertThat(lost).as("acknowledged rows missing").isEmpty();
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

    /** The file key (device and inode) of the node's PG_VERSION: a new clone would make a new file. */
    private static Object dataDirectoryIdentity() throws Exception {
        Path version = patroni().dir().resolve(NEW).resolve("data").resolve("PG_VERSION");
        return Files.readAttributes(version, BasicFileAttributes.class).fileKey();
    }

    /** The state of {@code member}'s wal sender in the leader's GET /patroni replication list; null when absent. */
    private static String replicationState(String member) throws Exception {
        JsonNode patroniStatus = get(leader(), "/patroni");
        for (JsonNode r : patroniStatus.path("replication")) {
            if (member.equals(r.path("application_name").asText())) {
                return r.path("state").asText();
            }
        }
        return null;
    }

    private static List<String> clusterMembers() throws Exception {
        List<String> names = new ArrayList<>();
        get(leader(), "/cluster").path("members").forEach(m -> names.add(m.path("name").asText()));
        return names;
    }

    private static PatroniClusterFixture.Node leader() {
        String name = await().atMost(Duration.ofSeconds(30)).until(() -> leaderNow(patroni()), n -> n != null);
        return patroni().node(name);
    }

    private static JsonNode get(PatroniClusterFixture.Node node, String path) throws Exception {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(node.restApi() + path))
                .timeout(Duration.ofSeconds(2)).GET().build(), HttpResponse.BodyHandlers.ofString());
        return RolloutDriver.JSON.readTree(response.body());
    }
}
