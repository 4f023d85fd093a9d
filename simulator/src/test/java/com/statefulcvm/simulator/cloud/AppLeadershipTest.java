package com.statefulcvm.simulator.cloud;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.statefulcvm.simulator.SimulatorProperties;
import com.statefulcvm.simulator.api.CommitRequest;
import com.statefulcvm.simulator.api.InstanceRequest;
import com.statefulcvm.simulator.api.ProvisionRequest;
import com.statefulcvm.simulator.api.ProvisionResult;

/**
 * Leadership rules below HTTP: the name order elections use, and an explicit leader, the members, their IDs and the
 * term kept in the state file.
 */
class AppLeadershipTest {

    @TempDir
    Path dir;

    @Test
    void namesCompareByPrefixThenTrailingNumber() {
        List<String> names = new ArrayList<>(List.of("db-10", "db-2", "db-02x", "db", "db-1", "da-9", "db-0", "db-002"));
        names.sort(AppLeadership.NAME_ORDER);

        // "db-2" and "db-002" are the same ordinal: the plain string order breaks the tie
        assertThat(names).containsExactly("da-9", "db", "db-0", "db-1", "db-002", "db-2", "db-10", "db-02x");
    }

    @Test
    void anExplicitLeaderSurvivesAReload() {
        SimulatorProperties properties = new SimulatorProperties();
        properties.setStateFile(dir.resolve("simulator.json"));
        SimulatorProperties.Timings t = properties.getTimings();
        t.setCreateMs(30);
        t.setStartMs(20);
        String appId;
        try (SimulatedCloud cloud = new SimulatedCloud(properties)) {
            ProvisionResult provision = cloud.provision(new ProvisionRequest("keeper-0", null,
                    Map.of("docker_compose_file", "services: {}\n"), null, null, null, null));
            appId = provision.appId();
            cloud.commit(new CommitRequest(appId, provision.composeHash(), null, null));
            CloudTests.awaitNoCreation(cloud);
            cloud.addInstance(appId, InstanceRequest.named("keeper-1"));
            for (String name : List.of("keeper-0", "keeper-1")) {
                await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(10)).until(() -> {
                    CvmSnapshot cvm = cloud.cvm(name);
                    return "running".equals(cvm.status()) && !cvm.inProgress();
                });
            }
            assertThat(cloud.role("keeper-1").appLeader()).isEqualTo("keeper-0");
            assertThat(cloud.makeLeader("keeper-1").leader()).isTrue();
        }
        try (SimulatedCloud reloaded = new SimulatedCloud(properties)) {
            assertThat(reloaded.role("keeper-0").appLeader()).isEqualTo("keeper-1");
            assertThat(reloaded.gatewayRole(reloaded.cvm("keeper-1").instanceId() + "-8008")).isEqualTo(RoleAnswer.LEADER);
            assertThat(reloaded.gatewayRole(reloaded.cvm("keeper-0").instanceId() + "-8008")).isEqualTo(RoleAnswer.REPLICA);
            assertThat(reloaded.gatewayRole(appId + "-8008")).isEqualTo(RoleAnswer.LEADER);
        }
    }

    @Test
    void theWorkloadsMembersTermAndAnnouncedMembersSurviveAReload() {
        SimulatorProperties properties = new SimulatorProperties();
        properties.setStateFile(dir.resolve("members.json"));
        properties.getTimings().setCreateMs(30);
        properties.getTimings().setStartMs(20);
        properties.getTimings().setStopMs(20);
        String target;
        WorkloadView before;
        try (SimulatedCloud cloud = new SimulatedCloud(properties)) {
            ProvisionResult provision = cloud.provision(new ProvisionRequest("quorum-0", null,
                    Map.of("docker_compose_file", "services: {}\n"), null, null, null, null));
            cloud.commit(new CommitRequest(provision.appId(), provision.composeHash(), null, null));
            for (String name : List.of("quorum-1", "quorum-2")) {
                CloudTests.awaitNoCreation(cloud);
                cloud.addInstance(provision.appId(), InstanceRequest.named(name));
            }
            for (String name : List.of("quorum-0", "quorum-1", "quorum-2")) {
                awaitRunning(cloud, name);
            }
            target = cloud.cvm("quorum-1").instanceId() + "-2379";
            cloud.switchover(target, "quorum-0", "quorum-2");
            String removed = cloud.workload(target).orElseThrow().byName("quorum-1").orElseThrow().id();
            cloud.removeWorkloadMember(cloud.cvm("quorum-0").instanceId() + "-2379", removed);
            cloud.addWorkloadMember(target, List.of("http://quorum-3:2380"), true);
            cloud.stop("quorum-0");
            before = cloud.workload(cloud.cvm("quorum-2").instanceId() + "-2379").orElseThrow();
        }
        assertThat(before.leader().map(WorkloadMember::name)).contains("quorum-2");
        assertThat(before.term()).isEqualTo(2);
        assertThat(before.members()).extracting(WorkloadMember::name).containsExactly("quorum-0", "quorum-2", null);
        try (SimulatedCloud reloaded = new SimulatedCloud(properties)) {
            WorkloadView after = reloaded.workload(reloaded.cvm("quorum-2").instanceId() + "-2379").orElseThrow();
            assertThat(after.members()).isEqualTo(before.members());
            assertThat(after.term()).isEqualTo(before.term());
            assertThat(after.index()).isEqualTo(before.index());
        }
    }

    private static void awaitRunning(SimulatedCloud cloud, String name) {
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(10)).until(() -> {
            CvmSnapshot cvm = cloud.cvm(name);
            return "running".equals(cvm.status()) && !cvm.inProgress();
        });
    }
}
