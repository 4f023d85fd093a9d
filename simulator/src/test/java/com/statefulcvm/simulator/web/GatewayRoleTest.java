package com.statefulcvm.simulator.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.statefulcvm.connectors.health.HttpHealthProbe;
import com.statefulcvm.connectors.health.InstanceUrlTemplate;
import com.statefulcvm.connectors.health.ProbeResult;
import com.statefulcvm.simulator.SimClient;
import com.statefulcvm.simulator.SimulatorHttpTestBase;

/**
 * The role probe through the gateway, as Patroni's {@code GET /leader} answers it: 200 on the app's one leader, 503
 * on its other running CVMs, 502 on a CVM that is down; and the admin control over who leads.
 */
class GatewayRoleTest extends SimulatorHttpTestBase {

    private SimClient.Response get(String target, int port, String path) {
        return sim.send("GET", "/simulator/gateway/" + target + "-" + port + path, null, null, null);
    }

    private SimClient.Response leaderProbe(String cvmName) {
        return get(cvm(cvmName).get("instance_id").asText(), 8008, "/leader");
    }

    private int leaderStatus(String cvmName) {
        return leaderProbe(cvmName).status();
    }

    private JsonNode role(String cvmName) {
        SimClient.Response response = sim.get(SimClient.ADMIN + "/cvms/" + cvmName + "/role");
        assertThat(response.status()).as(response.toString()).isEqualTo(200);
        return response.json();
    }

    private SimClient.Response makeLeader(String cvmName, Object body) {
        return sim.post(SimClient.ADMIN + "/cvms/" + cvmName + "/role", body);
    }

    /** An app with running CVMs, named in this order (the first is the app's first CVM). */
    private String runningApp(String... names) {
        String appId = createApp(names[0]).get("app_id").asText();
        for (int i = 1; i < names.length; i++) {
            addInstance(appId, names[i]);
        }
        for (String name : names) {
            awaitSettled(name, "running");
        }
        return appId;
    }

    @Test
    void theLowestNamedRunningCvmLeadsByDefaultAndTheOthersAreReplicas() {
        // created out of name order, and "-10" after "-2" as slot ordinals go, not as strings
        String appId = runningApp("quorum-10", "quorum-3", "quorum-2");

        SimClient.Response leader = leaderProbe("quorum-2");
        assertThat(leader.status()).isEqualTo(200);
        assertThat(leader.json().get("role").asText()).isEqualTo("leader");
        SimClient.Response replica = leaderProbe("quorum-10");
        assertThat(replica.status()).isEqualTo(503);
        assertThat(replica.json().get("role").asText()).isEqualTo("replica");
        assertThat(leaderStatus("quorum-3")).isEqualTo(503);

        String instanceId = cvm("quorum-2").get("instance_id").asText();
        assertThat(get(instanceId, 5432, "/leader").status()).as("any port").isEqualTo(200);
        assertThat(get(instanceId, 8008, "/leader?x=1").status()).as("with a query").isEqualTo(200);
        assertThat(get(appId, 8008, "/leader").status()).as("the app route reaches its leader").isEqualTo(200);
        assertThat(sim.send("HEAD", "/simulator/gateway/" + instanceId + "-8008/leader", null, null, null).status())
                .as("HEAD as GET").isEqualTo(200);
        assertThat(sim.send("HEAD", "/simulator/gateway/" + cvm("quorum-3").get("instance_id").asText() + "-8008/leader",
                null, null, null).status()).isEqualTo(503);

        JsonNode role = role("quorum-10");
        assertThat(role.get("cvm").asText()).isEqualTo("quorum-10");
        assertThat(role.get("status").asText()).isEqualTo("running");
        assertThat(role.get("leader").asBoolean()).isFalse();
        assertThat(role.get("appLeader").asText()).isEqualTo("quorum-2");
        assertThat(role("quorum-2").get("leader").asBoolean()).isTrue();
    }

    @Test
    void healthIsUnchangedOnEveryCvmWhateverItsRole() {
        runningApp("steady-0", "steady-1");
        assertThat(leaderStatus("steady-1")).isEqualTo(503);

        for (String name : new String[] {"steady-0", "steady-1"}) {
            SimClient.Response health = get(cvm(name).get("instance_id").asText(), 8008, "/health");
            assertThat(health.status()).isEqualTo(200);
            assertThat(health.json().get("status").asText()).isEqualTo("ok");
        }
        String replicaId = cvm("steady-1").get("instance_id").asText();
        assertThat(sim.send("POST", "/simulator/gateway/" + replicaId + "-8008/leader", "application/json", "{}", null)
                .body()).as("only GET and HEAD are the role probe").isEqualTo("{\"status\":\"ok\"}");
    }

    @Test
    void theAdminMakesAnyRunningCvmTheLeader() {
        runningApp("elect-0", "elect-1", "elect-2");
        assertThat(leaderStatus("elect-0")).isEqualTo(200);

        SimClient.Response made = makeLeader("elect-2", Map.of("leader", true));
        assertThat(made.status()).as(made.toString()).isEqualTo(200);
        assertThat(made.json().get("cvm").asText()).isEqualTo("elect-2");
        assertThat(made.json().get("leader").asBoolean()).isTrue();
        assertThat(made.json().get("appLeader").asText()).isEqualTo("elect-2");

        assertThat(leaderStatus("elect-2")).isEqualTo(200);
        assertThat(leaderStatus("elect-0")).isEqualTo(503);
        assertThat(leaderStatus("elect-1")).isEqualTo(503);
        assertThat(makeLeader("elect-2", Map.of("leader", true)).status()).as("idempotent").isEqualTo(200);
        assertThat(leaderStatus("elect-2")).isEqualTo(200);
    }

    @Test
    void theAdminRefusesBadRequestsUnknownAndStoppedCvms() {
        runningApp("refuse-0", "refuse-1");

        assertThat(makeLeader("refuse-1", Map.of()).status()).isEqualTo(400);
        SimClient.Response demote = makeLeader("refuse-0", Map.of("leader", false));
        assertThat(demote.status()).isEqualTo(400);
        assertThat(demote.json().get("detail").asText()).contains("another CVM");
        assertThat(makeLeader("nobody-0", Map.of("leader", true)).status()).isEqualTo(404);
        assertThat(sim.get(SimClient.ADMIN + "/cvms/nobody-0/role").status()).isEqualTo(404);

        sim.post(api("/cvms/refuse-1/stop"), null);
        SimClient.Response stopped = makeLeader("refuse-1", Map.of("leader", true));
        assertThat(stopped.status()).isEqualTo(409);
        assertThat(stopped.json().get("detail").asText()).contains("not running");
        assertThat(leaderStatus("refuse-0")).as("nothing changed").isEqualTo(200);
    }

    @Test
    void aLeaderThatRestartsFailsOverAtOnceAndDoesNotTakeItBack() {
        runningApp("failover-0", "failover-1", "failover-2");
        assertThat(leaderStatus("failover-0")).isEqualTo(200);
        String restarted = cvm("failover-0").get("instance_id").asText();
        sim.put(SimClient.ADMIN + "/timings", Map.of("restartMs", 1500));

        sim.post(api("/cvms/failover-0/restart"), null);
        SimClient.Response down = get(restarted, 8008, "/leader");
        assertThat(down.status()).as("down: like health").isEqualTo(502);
        assertThat(down.body()).isEqualTo("no upstream");
        assertThat(role("failover-0").get("appLeader").asText()).isEqualTo("failover-1");
        assertThat(leaderStatus("failover-1")).isEqualTo(200);
        awaitSettled("failover-0", "running");

        assertThat(leaderStatus("failover-1")).isEqualTo(200);
        assertThat(leaderStatus("failover-0")).as("back as a replica").isEqualTo(503);
        assertThat(leaderStatus("failover-2")).isEqualTo(503);
    }

    @Test
    void aLeaderThatIsUpdatedStoppedCrashedOrDeletedLosesLeadership() {
        runningApp("member-0", "member-1", "member-2", "member-3");
        makeLeader("member-2", Map.of("leader", true));

        patchCompose("member-2", "services: {db: {}}\n");
        assertThat(role("member-0").get("appLeader").asText()).as("the lowest running name").isEqualTo("member-0");
        awaitSettled("member-2", "running");
        assertThat(leaderStatus("member-2")).isEqualTo(503);

        sim.post(api("/cvms/member-0/stop"), null);
        assertThat(role("member-3").get("appLeader").asText()).isEqualTo("member-1");

        sim.post(SimClient.ADMIN + "/cvms/member-1/crash", null);
        assertThat(role("member-3").get("appLeader").asText()).isEqualTo("member-2");

        assertThat(sim.delete(api("/cvms/member-2")).status()).isEqualTo(200);
        assertThat(leaderStatus("member-3")).isEqualTo(200);
    }

    @Test
    void unhealthyDoesNotChangeRoles() {
        runningApp("marked-0", "marked-1");
        sim.post(SimClient.ADMIN + "/cvms/marked-0/health", Map.of("healthy", false));
        sim.post(SimClient.ADMIN + "/cvms/marked-1/health", Map.of("healthy", false));

        assertThat(get(cvm("marked-0").get("instance_id").asText(), 8008, "/health").status()).isEqualTo(503);
        assertThat(leaderStatus("marked-0")).as("the leader lock, not the database's health").isEqualTo(200);
        assertThat(leaderStatus("marked-1")).isEqualTo(503);
    }

    @Test
    void anAppWithNothingRunningHasNoLeaderUntilACvmRunsAgain() {
        String appId = runningApp("lonely-0", "lonely-1");
        sim.post(SimClient.ADMIN + "/cvms/lonely-0/crash", null);
        sim.post(SimClient.ADMIN + "/cvms/lonely-1/crash", null);

        assertThat(get(appId, 8008, "/leader").status()).isEqualTo(502);
        assertThat(leaderStatus("lonely-1")).isEqualTo(502);
        assertThat(role("lonely-0").get("appLeader").isNull()).isTrue();

        sim.post(api("/cvms/lonely-1/start"), null);
        awaitSettled("lonely-1", "running");
        assertThat(leaderStatus("lonely-1")).isEqualTo(200);
        sim.post(api("/cvms/lonely-0/start"), null);
        awaitSettled("lonely-0", "running");
        assertThat(leaderStatus("lonely-0")).as("lonely-1 keeps it").isEqualTo(503);
        assertThat(get("f".repeat(40), 8008, "/leader").status()).as("unknown target").isEqualTo(502);
    }

    @Test
    void theOrchestratorsProbeReadsTheRoleThroughTheSimulatorRoute() {
        runningApp("probed-0", "probed-1");
        InstanceUrlTemplate urls = new InstanceUrlTemplate(
                "http://127.0.0.1:" + port + "/simulator/gateway/{instanceId}-{port}{path}");
        HttpHealthProbe probe = new HttpHealthProbe();

        URI leaderUrl = urls.resolve(cvm("probed-0").get("instance_id").asText(), 8008, null, "/leader");
        URI replicaUrl = urls.resolve(cvm("probed-1").get("instance_id").asText(), 8008, null, "/leader");
        ProbeResult leader = probe.probe(leaderUrl, 200, Duration.ofSeconds(2));
        ProbeResult replica = probe.probe(replicaUrl, 200, Duration.ofSeconds(2));

        assertThat(leader.statusCode()).isEqualTo(200);
        assertThat(replica.answered()).isTrue();
        assertThat(replica.statusCode()).isEqualTo(503);
    }
}
