package com.statefulcvm.simulator.workloads;

import com.statefulcvm.workloads.EtcdClusterFixture;
import com.statefulcvm.workloads.PatroniClusterFixture;
import com.statefulcvm.workloads.WorkloadScripts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import com.fasterxml.jackson.databind.JsonNode;
import com.statefulcvm.simulator.SimClient;

/**
 * Three simulated CVMs backed by the members of a real 3-member etcd cluster ({@code workloads/etcd-cluster.sh} under
 * {@code target/workloads/}): the simulator's lifecycle stops, starts, restarts and kills the real members, and the
 * CVMs' gateway routes on port 2379 reach etcd's v3 JSON gateway. Skipped when etcd is not installed.
 */
@DirtiesContext
@EnabledIf(value = "com.statefulcvm.workloads.WorkloadScripts#etcdInstalled",
        disabledReason = WorkloadScripts.ETCD_MISSING)
class EtcdBackedCvmTest extends BackedCvmTestSupport {

    private static final int PORT = EtcdClusterFixture.CLIENT_PORT;
    private static EtcdClusterFixture etcd;

    @BeforeAll
    static void startEtcd() {
        WorkloadScripts.assumeEtcd();
        etcd();
    }

    private static synchronized EtcdClusterFixture etcd() {
        if (etcd == null) {
            etcd = EtcdClusterFixture.start(WorkloadScripts.dataDirectory("etcd-backed"), 3, "etcd");
        }
        return etcd;
    }

    @DynamicPropertySource
    static void backends(DynamicPropertyRegistry registry) {
        etcd().backendProperties().forEach((name, value) -> registry.add(name, () -> value));
    }

    @AfterAll
    static void stopEtcd() {
        if (etcd != null) {
            etcd.close();
            etcd = null;
        }
    }

    private JsonNode status(String cvm) {
        SimClient.Response response = gateway("POST", cvm, PORT, "/v3/maintenance/status", "{}");
        assertThat(response.status()).as(response.toString()).isEqualTo(200);
        return response.json();
    }

    private boolean healthy(String cvm) {
        SimClient.Response response = gateway("GET", cvm, PORT, "/health", null);
        return response.status() == 200 && response.body().contains("\"health\":\"true\"");
    }

    private List<String> memberNames(String viaCvm) {
        SimClient.Response response = gateway("POST", viaCvm, PORT, "/v3/cluster/member/list", "{}");
        assertThat(response.status()).as(response.toString()).isEqualTo(200);
        List<String> names = new java.util.ArrayList<>();
        response.json().get("members").forEach(m -> names.add(m.get("name").asText()));
        return names;
    }

    @Test
    void stoppingAndStartingABackedCvmStopsAndStartsTheRealMember() {
        runningBackedApp("etcd-0", "etcd-1", "etcd-2");

        JsonNode status = status("etcd-1");
        assertThat(status.get("version").asText()).startsWith("3.");
        assertThat(status.get("leader").asText()).isNotEqualTo("0");
        assertThat(memberNames("etcd-0")).containsExactlyInAnyOrder("etcd-0", "etcd-1", "etcd-2");

        lifecycle("etcd-1", "stop");
        awaitSettled("etcd-1", "stopped");
        await().atMost(Duration.ofSeconds(30)).until(() -> !etcd.clientPortOpen("etcd-1"));
        // the port closes a moment before the process has exited and its pid is cleared
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                assertThat(etcd.pid("etcd-1")).as("the member's process is gone").isZero());
        awaitBackendIdle("etcd-1");
        assertThat(results("etcd-1")).endsWith("stop:ok");
        SimClient.Response down = gateway("GET", "etcd-1", PORT, "/health", null);
        assertThat(down.status()).isEqualTo(502);
        assertThat(down.body()).isEqualTo("no upstream");
        // two of three keep quorum: the cluster still answers, still lists three members, and takes writes
        assertThat(status("etcd-0").get("leader").asText()).isNotEqualTo("0");
        assertThat(memberNames("etcd-2")).hasSize(3);
        SimClient.Response put = gateway("POST", "etcd-0", PORT, "/v3/kv/put",
                "{\"key\":\"Zml4dHVyZQ==\",\"value\":\"b25l\"}");   // fixture = one
        assertThat(put.status()).as(put.toString()).isEqualTo(200);

        lifecycle("etcd-1", "start");
        awaitSettled("etcd-1", "running");
        awaitBackendIdle("etcd-1");
        assertThat(results("etcd-1")).endsWith("stop:ok", "start:ok");
        assertThat(etcd.clientPortOpen("etcd-1")).isTrue();
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                .until(() -> healthy("etcd-0") && healthy("etcd-1") && healthy("etcd-2"));
        assertThat(memberNames("etcd-1")).containsExactlyInAnyOrder("etcd-0", "etcd-1", "etcd-2");
        // it caught up: it serves the key written while it was away
        SimClient.Response range = gateway("POST", "etcd-1", PORT, "/v3/kv/range", "{\"key\":\"Zml4dHVyZQ==\"}");
        assertThat(range.status()).as(range.toString()).isEqualTo(200);
        assertThat(range.json().get("kvs").get(0).get("value").asText()).isEqualTo("b25l");
        JsonNode rejoined = status("etcd-1");
        assertThat(rejoined.get("raftIndex").asLong()).isPositive();
    }

    @Test
    void aRestartRestartsTheRealMemberAndACrashKillsIt() {
        runningBackedApp("etcd-0", "etcd-1", "etcd-2");
        long before = etcd.pid("etcd-2");
        assertThat(before).isPositive();

        lifecycle("etcd-2", "restart");
        awaitSettled("etcd-2", "running");
        awaitBackendIdle("etcd-2");
        assertThat(results("etcd-2")).endsWith("stop:ok", "start:ok");
        long after = etcd.pid("etcd-2");
        assertThat(after).as("a new process").isPositive().isNotEqualTo(before);
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).until(() -> healthy("etcd-2"));

        SimClient.Response crash = sim.post(SimClient.ADMIN + "/cvms/etcd-0/crash", null);
        assertThat(crash.status()).as(crash.toString()).isEqualTo(200);
        awaitBackendIdle("etcd-0");
        assertThat(results("etcd-0")).endsWith("kill:ok");
        assertThat(etcd.clientPortOpen("etcd-0")).isFalse();
        assertThat(gateway("GET", "etcd-0", PORT, "/health", null).status()).isEqualTo(502);

        lifecycle("etcd-0", "start");
        awaitSettled("etcd-0", "running");
        awaitBackendIdle("etcd-0");
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).until(() -> healthy("etcd-0"));
        assertThat(memberNames("etcd-0")).hasSize(3);
    }
}
