package com.statefulcvm.simulator.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.statefulcvm.connectors.workload.SequenceEndpoint;
import com.statefulcvm.connectors.workload.WorkloadApiException;
import com.statefulcvm.connectors.workload.WorkloadHttp;
import com.statefulcvm.connectors.workload.consul.ConsulAutopilotHealth;
import com.statefulcvm.connectors.workload.consul.ConsulClient;
import com.statefulcvm.connectors.workload.consul.ConsulRaftConfiguration;
import com.statefulcvm.connectors.workload.consul.ConsulRaftServer;
import com.statefulcvm.connectors.workload.etcd.EtcdClient;
import com.statefulcvm.connectors.workload.etcd.EtcdMember;
import com.statefulcvm.connectors.workload.etcd.EtcdMemberAdded;
import com.statefulcvm.connectors.workload.etcd.EtcdMemberList;
import com.statefulcvm.connectors.workload.etcd.EtcdStatus;
import com.statefulcvm.connectors.workload.patroni.PatroniActionResult;
import com.statefulcvm.connectors.workload.patroni.PatroniClient;
import com.statefulcvm.connectors.workload.patroni.PatroniCluster;
import com.statefulcvm.connectors.workload.patroni.PatroniMember;
import com.statefulcvm.connectors.workload.patroni.PatroniStatus;
import com.statefulcvm.simulator.SimClient;
import com.statefulcvm.simulator.SimulatorHttpTestBase;

/**
 * The simulated workload APIs behind the gateway, read and driven with the orchestrator's own clients (Patroni REST,
 * Consul HTTP, etcd v3 JSON) over real HTTP: membership follows the app's CVMs, one leader per app, a leader that stops
 * hands over, a new CVM joins as a replica, and each workload's own membership calls (switchover, transfer, leave,
 * member add/promote/remove) act on that one membership.
 */
class SimulatedWorkloadApiTest extends SimulatorHttpTestBase {

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

    private URI uri(String cvmName, int gatewayPort) {
        return URI.create("http://127.0.0.1:" + port + "/simulator/gateway/" + cvm(cvmName).get("instance_id").asText()
                + "-" + gatewayPort);
    }

    private PatroniClient patroni(String cvmName) {
        return new PatroniClient(uri(cvmName, 8008));
    }

    private ConsulClient consul(String cvmName) {
        return new ConsulClient(uri(cvmName, 8500));
    }

    private EtcdClient etcd(String cvmName) {
        return new EtcdClient(uri(cvmName, 2379));
    }

    private static List<String> names(PatroniCluster cluster) {
        return cluster.members().stream().map(PatroniMember::name).toList();
    }

    private SequenceEndpoint holdbackAgent(String cvmName) {
        return new SequenceEndpoint(new WorkloadHttp("hold-back agent", uri(cvmName, 9000), java.time.Duration.ofSeconds(5),
                WorkloadHttp.sharedHttpClient()));
    }

    private SimClient.Response agentHealth(String cvmName) {
        return sim.get("/simulator/gateway/" + cvm(cvmName).get("instance_id").asText() + "-9000/health");
    }

    /**
     * The hold-back agent as the galera-demo compose runs it: nodes stopped one by one keep what they committed (the
     * last to stop the most), a lights-out's boots are held back answering their seqno, the seed's release makes its
     * state the cluster's and it alone answers Synced, a follower's release joins it; a node restarted while others
     * run joins them at once, held by nothing.
     */
    @Test
    void theHoldBackAgentHoldsALightsOutBackWithEachNodesSeqnoUntilReleasedSeedFirst() {
        runningApp("gal-0", "gal-1", "gal-2");
        assertThatThrownBy(() -> holdbackAgent("gal-0").readPosition("/sequence")).as("a first boot is not held back")
                .isInstanceOf(WorkloadApiException.class).hasMessageContaining("503").hasMessageContaining("released");
        assertThat(agentHealth("gal-0").status()).isEqualTo(200);
        assertThat(agentHealth("gal-0").json().get("state").asText()).isEqualTo("Synced");

        // a rolling restart: the restarted node joins the running ones, nothing holds it
        sim.post(api("/cvms/gal-2/restart"), null);
        awaitSettled("gal-2", "running");
        assertThat(agentHealth("gal-2").status()).isEqualTo(200);

        // lights-out in the order gal-0, gal-2, gal-1: gal-1 stopped last and holds the most recent state
        for (String name : List.of("gal-0", "gal-2", "gal-1")) {
            sim.post(api("/cvms/" + name + "/stop"), null);
            awaitSettled(name, "stopped");
        }
        for (String name : List.of("gal-0", "gal-1", "gal-2")) {
            sim.post(api("/cvms/" + name + "/start"), null);
            awaitSettled(name, "running");
        }
        long seq0 = holdbackAgent("gal-0").readPosition("/sequence").number();
        long seq1 = holdbackAgent("gal-1").readPosition("/sequence").number();
        long seq2 = holdbackAgent("gal-2").readPosition("/sequence").number();
        assertThat(seq1).as("the last to stop").isGreaterThan(seq2);
        assertThat(seq2).isGreaterThan(seq0);
        assertThat(agentHealth("gal-1").status()).as("held back: not Synced").isEqualTo(503);
        assertThat(agentHealth("gal-1").body()).contains("held back");

        holdbackAgent("gal-1").release("/release", Map.of("role", "seed", "seed", "gal-1", "primaries", List.of()));
        assertThat(agentHealth("gal-1").status()).isEqualTo(200);
        assertThatThrownBy(() -> holdbackAgent("gal-1").readPosition("/sequence")).isInstanceOf(WorkloadApiException.class);
        assertThat(holdbackAgent("gal-0").readPosition("/sequence").number()).as("still held").isEqualTo(seq0);
        assertThat(agentHealth("gal-0").status()).isEqualTo(503);
        assertThatThrownBy(() -> holdbackAgent("gal-0").release("/release", Map.of("role", "primary")))
                .isInstanceOf(WorkloadApiException.class).hasMessageContaining("400");
        holdbackAgent("gal-0").release("/release", Map.of("role", "follower", "seed", "gal-1", "primaries", List.of("gal-1")));
        assertThat(agentHealth("gal-0").status()).isEqualTo(200);

        // a drain desyncs gal-0 (its health 503) until it resumes, or until it stops
        assertThat(sim.post("/simulator/gateway/" + cvm("gal-0").get("instance_id").asText() + "-9000/drain", null).json()
                .get("drained").asBoolean()).isTrue();
        assertThat(agentHealth("gal-0").status()).isEqualTo(503);
        assertThat(agentHealth("gal-0").body()).contains("Donor/Desynced");
        sim.post("/simulator/gateway/" + cvm("gal-0").get("instance_id").asText() + "-9000/resume", null);
        assertThat(agentHealth("gal-0").status()).isEqualTo(200);

        // gal-2 stopped again and started while two run: it joins them, held by nothing
        sim.post(api("/cvms/gal-2/stop"), null);
        awaitSettled("gal-2", "stopped");
        sim.post(api("/cvms/gal-2/start"), null);
        awaitSettled("gal-2", "running");
        assertThat(agentHealth("gal-2").status()).isEqualTo(200);
    }

    @Test
    void patroniClusterListsEveryRunningCvmWithOneLeaderAndStreamingReplicas() {
        runningApp("pgsql-1", "pgsql-0", "pgsql-2");

        PatroniCluster cluster = patroni("pgsql-2").cluster();
        assertThat(names(cluster)).containsExactly("pgsql-0", "pgsql-1", "pgsql-2");
        assertThat(cluster.leader().map(PatroniMember::name)).contains("pgsql-0");
        PatroniMember leader = cluster.member("pgsql-0").orElseThrow();
        assertThat(leader.state()).isEqualTo("running");
        assertThat(leader.isRunning()).isTrue();
        assertThat(leader.timeline()).isEqualTo(1L);
        for (String replica : List.of("pgsql-1", "pgsql-2")) {
            PatroniMember m = cluster.member(replica).orElseThrow();
            assertThat(m.role()).isEqualTo("replica");
            assertThat(m.state()).isEqualTo("streaming");
            assertThat(m.lag()).isZero();
            assertThat(m.timeline()).isEqualTo(1L);
        }
        assertThat(patroni("pgsql-1").cluster()).as("every member sees the same").isEqualTo(cluster);

        assertThat(patroni("pgsql-0").isLeader()).isTrue();
        assertThat(patroni("pgsql-1").isLeader()).isFalse();
        assertThat(patroni("pgsql-0").isReplica()).isFalse();
        assertThat(patroni("pgsql-1").isReplica(0)).isTrue();
        assertThat(patroni("pgsql-1").isHealthy()).isTrue();

        PatroniStatus primary = patroni("pgsql-0").status();
        assertThat(primary.isPrimary()).isTrue();
        assertThat(primary.memberName()).isEqualTo("pgsql-0");
        assertThat(primary.wal().location()).isPositive();
        assertThat(primary.replication()).extracting(PatroniStatus.Replication::applicationName)
                .containsExactly("pgsql-1", "pgsql-2");
        PatroniStatus replica = patroni("pgsql-2").status();
        assertThat(replica.isReplica()).isTrue();
        assertThat(replica.replicationState()).isEqualTo("streaming");
        assertThat(replica.wal().replayedLocation()).isEqualTo(primary.wal().location());
    }

    @Test
    void aNewCvmJoinsAsAReplicaAndAStoppedLeaderHandsOverOnANewTimeline() {
        String appId = runningApp("grow-0", "grow-1");
        assertThat(patroni("grow-0").cluster().leader().map(PatroniMember::name)).contains("grow-0");

        addInstance(appId, "grow-2");
        assertThat(names(patroni("grow-0").cluster())).as("not running yet").containsExactly("grow-0", "grow-1");
        awaitSettled("grow-2", "running");
        PatroniMember joined = patroni("grow-0").cluster().member("grow-2").orElseThrow();
        assertThat(joined.role()).isEqualTo("replica");
        assertThat(joined.state()).isEqualTo("streaming");

        sim.post(api("/cvms/grow-0/stop"), null);
        PatroniCluster after = patroni("grow-1").cluster();
        assertThat(names(after)).containsExactly("grow-1", "grow-2");
        assertThat(after.leader().map(PatroniMember::name)).contains("grow-1");
        assertThat(after.leader().orElseThrow().timeline()).isEqualTo(2L);
        assertThat(new PatroniClient(URI.create("http://127.0.0.1:" + port + "/simulator/gateway/" + appId + "-8008"))
                .isLeader()).as("the app route reaches its leader").isTrue();

        awaitSettled("grow-0", "stopped");
        sim.post(api("/cvms/grow-0/start"), null);
        awaitSettled("grow-0", "running");
        assertThat(patroni("grow-0").cluster().member("grow-0").orElseThrow().role()).as("back as a replica")
                .isEqualTo("replica");
    }

    @Test
    void patroniSwitchesOverAndFailsOverAsAsked() {
        runningApp("swap-0", "swap-1", "swap-2");

        PatroniActionResult switched = patroni("swap-1").switchover("swap-0", "swap-2");
        assertThat(switched.status()).isEqualTo(200);
        assertThat(switched.newLeader()).contains("swap-2");
        assertThat(patroni("swap-0").cluster().leader().map(PatroniMember::name)).contains("swap-2");
        assertThat(patroni("swap-0").status().isReplica()).isTrue();

        assertThat(patroni("swap-0").switchover("swap-2", null).newLeader()).as("no candidate: the first replica").contains("swap-0");
        assertThatThrownBy(() -> patroni("swap-0").switchover("swap-1", "swap-2"))
                .isInstanceOfSatisfying(WorkloadApiException.class, e -> {
                    assertThat(e.status()).isEqualTo(412);
                    assertThat(e.errorText()).isEqualTo("leader name does not match");
                });
        assertThatThrownBy(() -> patroni("swap-0").switchover("swap-0", "nobody-9"))
                .isInstanceOfSatisfying(WorkloadApiException.class, e -> assertThat(e.status()).isEqualTo(412));
        assertThat(patroni("swap-1").failover("swap-1").newLeader()).contains("swap-1");
        assertThat(patroni("swap-2").cluster().leader().map(PatroniMember::name)).contains("swap-1");
    }

    @Test
    void anUnhealthyMemberReportsPostgresStoppedAndFailsItsHealthButKeepsTheLock() {
        runningApp("ill-0", "ill-1");
        sim.post(SimClient.ADMIN + "/cvms/ill-1/health", Map.of("healthy", false));

        PatroniMember ill = patroni("ill-0").cluster().member("ill-1").orElseThrow();
        assertThat(ill.state()).isEqualTo("stopped");
        assertThat(ill.isLagKnown()).isFalse();
        assertThat(patroni("ill-1").isHealthy()).isFalse();
        assertThat(patroni("ill-1").isReplica()).isFalse();
        assertThat(consul("ill-1").autopilotHealth().healthy()).isFalse();
        assertThat(sim.get("/simulator/gateway/" + cvm("ill-1").get("instance_id").asText() + "-8500/v1/status/leader")
                .status()).as("Consul's health check").isEqualTo(503);
    }

    @Test
    void consulServersAreTheAppsMembersAndAStoppedOneStaysInTheRaftConfigurationUnhealthy() {
        runningApp("consul-0", "consul-1", "consul-2");

        assertThat(consul("consul-1").leader()).contains(sim.get(api("/cvms/consul-0/network")).json().get("internal_ip").asText() + ":8300");
        ConsulRaftConfiguration raft = consul("consul-2").raftConfiguration();
        assertThat(raft.servers()).extracting(ConsulRaftServer::node).containsExactly("consul-0", "consul-1", "consul-2");
        assertThat(raft.leader().map(ConsulRaftServer::node)).contains("consul-0");
        assertThat(raft.voters()).hasSize(3);
        assertThat(raft.byNode("consul-1").orElseThrow().id()).isEqualTo(cvm("consul-1").get("vm_uuid").asText());
        ConsulAutopilotHealth health = consul("consul-0").autopilotHealth();
        assertThat(health.healthy()).isTrue();
        assertThat(health.failureTolerance()).isEqualTo(1);
        assertThat(sim.get("/simulator/gateway/" + cvm("consul-0").get("instance_id").asText() + "-8500/v1/status/peers")
                .json()).hasSize(3);

        sim.post(api("/cvms/consul-2/stop"), null);
        awaitSettled("consul-2", "stopped");
        ConsulAutopilotHealth degraded = consul("consul-0").autopilotHealth();
        assertThat(degraded.healthy()).isFalse();
        assertThat(degraded.failureTolerance()).isZero();
        assertThat(degraded.byName("consul-2").orElseThrow().serfStatus()).isEqualTo("failed");
        assertThat(consul("consul-0").raftConfiguration().byNode("consul-2")).isPresent();
    }

    @Test
    void aStoppedConsulServerIsRemovedFromTheRaftPeersThroughAnotherServer() {
        runningApp("peer-0", "peer-1", "peer-2");
        sim.post(api("/cvms/peer-2/stop"), null);
        awaitSettled("peer-2", "stopped");
        String id = consul("peer-0").raftConfiguration().byNode("peer-2").orElseThrow().id();

        consul("peer-0").removeRaftPeer(id);
        ConsulRaftConfiguration after = consul("peer-1").raftConfiguration();
        assertThat(after.byNode("peer-2")).isEmpty();
        assertThat(after.servers()).hasSize(2);
        assertThat(consul("peer-0").autopilotHealth().healthy()).as("two of two servers healthy").isTrue();
        assertThatThrownBy(() -> consul("peer-0").removeRaftPeer(id)).as("not in the configuration any more")
                .isInstanceOfSatisfying(WorkloadApiException.class, e -> assertThat(e.status()).isEqualTo(500));
    }

    @Test
    void consulTransfersLeadershipAndALeftServerIsOutUntilItBootsAgain() {
        runningApp("srv-0", "srv-1", "srv-2", "srv-3", "srv-4");

        assertThat(consul("srv-3").transferLeader()).isTrue();
        assertThat(consul("srv-3").raftConfiguration().leader().map(ConsulRaftServer::node)).contains("srv-1");
        String srv4 = cvm("srv-4").get("vm_uuid").asText();
        assertThat(consul("srv-0").transferLeader(srv4)).isTrue();
        assertThat(consul("srv-0").raftConfiguration().leader().map(ConsulRaftServer::node)).contains("srv-4");
        assertThatThrownBy(() -> consul("srv-0").transferLeader("no-such-id"))
                .isInstanceOfSatisfying(WorkloadApiException.class, e -> assertThat(e.status()).isEqualTo(500));

        consul("srv-4").leave();
        ConsulRaftConfiguration after = consul("srv-0").raftConfiguration();
        assertThat(after.byNode("srv-4")).isEmpty();
        assertThat(after.leader().map(ConsulRaftServer::node)).as("the leader that left handed over").contains("srv-0");
        assertThat(consul("srv-1").autopilotHealth().failureTolerance()).as("4 voters, quorum 3").isEqualTo(1);
        assertThat(sim.get("/simulator/gateway/" + cvm("srv-4").get("instance_id").asText() + "-8500/v1/status/leader")
                .status()).as("its agent has left").isEqualTo(503);

        sim.post(api("/cvms/srv-4/restart"), null);
        awaitSettled("srv-4", "running");
        assertThat(consul("srv-0").raftConfiguration().byNode("srv-4")).as("rejoined at its next boot").isPresent();
    }

    @Test
    void etcdMembersAreTheAppsCvmsAndTheLeaderMovesOnlyWhenTheLeaderIsAsked() {
        runningApp("etcd-0", "etcd-1", "etcd-2");

        EtcdMemberList list = etcd("etcd-1").memberList();
        assertThat(list.members()).extracting(EtcdMember::name).containsExactly("etcd-0", "etcd-1", "etcd-2");
        assertThat(list.members()).allMatch(EtcdMember::isStarted).noneMatch(EtcdMember::isLearner);
        EtcdStatus leader = etcd("etcd-0").status();
        EtcdStatus follower = etcd("etcd-2").status();
        assertThat(leader.isLeader()).isTrue();
        assertThat(follower.isLeader()).isFalse();
        assertThat(follower.leader()).isEqualTo(leader.memberId());
        assertThat(follower.raftAppliedIndex()).isEqualTo(leader.raftIndex());
        assertThat(etcd("etcd-2").health().isHealthy()).isTrue();

        String target = list.byName("etcd-2").orElseThrow().id();
        assertThatThrownBy(() -> etcd("etcd-1").transferLeadership(target))
                .isInstanceOfSatisfying(WorkloadApiException.class, e -> assertThat(EtcdClient.isNotLeader(e)).isTrue());
        etcd("etcd-0").transferLeadership(target);
        assertThat(etcd("etcd-2").status().isLeader()).isTrue();
        assertThat(etcd("etcd-0").status().leader()).isEqualTo(target);
    }

    @Test
    void etcdAddsALearnerTheNextCvmClaimsPromotesItAndRemovesAMemberForGood() {
        String appId = runningApp("kvdb-0", "kvdb-1", "kvdb-2");

        EtcdMemberAdded added = etcd("kvdb-0").addMember(List.of("http://kvdb-3.peers:2380"), true);
        assertThat(added.member().isLearner()).isTrue();
        assertThat(added.member().isStarted()).isFalse();
        assertThat(added.members()).hasSize(4);
        assertThatThrownBy(() -> etcd("kvdb-0").addMember(List.of("http://kvdb-3.peers:2380"), true))
                .isInstanceOfSatisfying(WorkloadApiException.class, e -> assertThat(e.status()).isEqualTo(409));
        assertThatThrownBy(() -> etcd("kvdb-1").promoteMember(added.member().id()))
                .as("not started: not in sync").isInstanceOfSatisfying(WorkloadApiException.class,
                        e -> assertThat(e.errorText()).contains("in sync with leader"));

        addInstance(appId, "kvdb-3");
        awaitSettled("kvdb-3", "running");
        EtcdMember learner = etcd("kvdb-0").memberList().byName("kvdb-3").orElseThrow();
        assertThat(learner.id()).as("it claimed the announced member").isEqualTo(added.member().id());
        assertThat(learner.isLearner()).isTrue();
        assertThat(learner.isStarted()).isTrue();
        assertThat(etcd("kvdb-3").status().isLearner()).isTrue();

        EtcdMemberList promoted = etcd("kvdb-1").promoteMember(learner.id());
        assertThat(promoted.byName("kvdb-3").orElseThrow().isVoter()).isTrue();
        assertThat(promoted.quorum()).isEqualTo(3);
        assertThatThrownBy(() -> etcd("kvdb-1").promoteMember(learner.id()))
                .isInstanceOfSatisfying(WorkloadApiException.class, e -> assertThat(e.status()).isEqualTo(412));

        EtcdMemberList removed = etcd("kvdb-0").removeMember(learner.id());
        assertThat(removed.byName("kvdb-3")).isEmpty();
        assertThatThrownBy(() -> etcd("kvdb-0").removeMember(learner.id()))
                .isInstanceOfSatisfying(WorkloadApiException.class, e -> assertThat(EtcdClient.isMemberNotFound(e)).isTrue());
        sim.post(api("/cvms/kvdb-3/restart"), null);
        awaitSettled("kvdb-3", "running");
        assertThat(etcd("kvdb-0").memberList().byName("kvdb-3")).as("a removed member never comes back by itself").isEmpty();

        etcd("kvdb-0").addMember(List.of("http://kvdb-3.peers:2380"), true);
        sim.post(api("/cvms/kvdb-3/restart"), null);
        awaitSettled("kvdb-3", "running");
        assertThat(etcd("kvdb-0").memberList().byName("kvdb-3").orElseThrow().isLearner()).as("added anew").isTrue();
    }

    @Test
    void aStoppedCvmHasNoWorkloadApiButStaysAnEtcdMember() {
        runningApp("gone-0", "gone-1");
        String instanceId = cvm("gone-1").get("instance_id").asText();
        sim.post(SimClient.ADMIN + "/cvms/gone-1/crash", null);
        SimClient.Response down = sim.get("/simulator/gateway/" + instanceId + "-8008/cluster");
        assertThat(down.status()).isEqualTo(502);
        assertThat(down.body()).isEqualTo("no upstream");
        assertThat(etcd("gone-0").memberList().byName("gone-1")).as("etcd keeps a stopped member").isPresent();
        assertThat(names(patroni("gone-0").cluster())).as("Patroni lists running members").containsExactly("gone-0");
    }
}
