package com.statefulcvm.connectors.workload.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import com.statefulcvm.connectors.workload.StubServer;
import com.statefulcvm.connectors.workload.StubServer.Reply;
import com.statefulcvm.connectors.workload.WorkloadApiException;
import com.statefulcvm.connectors.workload.WorkloadJson;
import java.io.IOException;
import java.time.Duration;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link EtcdClient} against an in-process stub. The answers have the gateway's shapes: uint64 as strings, proto field
 * names ({@code cluster_id}, {@code dbSize}, {@code ID}, {@code peerURLs}), defaults left out (see
 * https://etcd.io/docs/v3.5/dev-guide/api_grpc_gateway/ and .../api_reference_v3/); the status and member list are as
 * etcd 3.4.23 (Debian's etcd-server) printed them, the errors as its gateway sends gRPC errors.
 */
class EtcdClientTest {

    static final String LEADER_ID = "13668033151171901709";
    static final String FOLLOWER_ID = "10501334649042878790";
    static final String LEARNER_ID = "2212341425372584193";

    /** etcd 3.4.23, POST /v3/maintenance/status {} on the leader. */
    static final String STATUS_LEADER = """
            {"header":{"cluster_id":"15118495548433857066","member_id":"13668033151171901709","revision":"1",\
            "raft_term":"2"},"version":"3.4.23","dbSize":"28672","leader":"13668033151171901709","raftIndex":"4",\
            "raftTerm":"2","raftAppliedIndex":"4","dbSizeInUse":"16384"}""";

    /**
     * A learner with an alarm raised: isLearner and errors only appear when set (etcd 3.4.23 printed the same without
     * the errors for a freshly started learner).
     */
    static final String STATUS_LEARNER = """
            {"header":{"cluster_id":"15118495548433857066","member_id":"2212341425372584193","revision":"7",\
            "raft_term":"3"},"version":"3.5.16","dbSize":"20480","leader":"13668033151171901709","raftIndex":"12",\
            "raftTerm":"3","raftAppliedIndex":"11","errors":["memberID:2212341425372584193 alarm:NOSPACE "],\
            "dbSizeInUse":"20480","isLearner":true}""";

    /** POST /v3/cluster/member/list {}: two voters and a learner; etcd 3.4 leaves isLearner out when false. */
    static final String MEMBER_LIST = """
            {"header":{"cluster_id":"15118495548433857066","member_id":"13668033151171901709","raft_term":"2"},\
            "members":[\
            {"ID":"13668033151171901709","name":"etcd-0","peerURLs":["http://10.0.0.1:2380"],\
            "clientURLs":["http://10.0.0.1:2379"]},\
            {"ID":"10501334649042878790","name":"etcd-1","peerURLs":["http://10.0.0.2:2380"],\
            "clientURLs":["http://10.0.0.2:2379"]},\
            {"ID":"2212341425372584193","name":"etcd-2","peerURLs":["http://10.0.0.3:2380"],\
            "clientURLs":["http://10.0.0.3:2379"],"isLearner":true}]}""";

    private static StubServer stub;
    private EtcdClient client;

    @BeforeAll
    static void startStub() {
        stub = StubServer.start();
    }

    @AfterAll
    static void stopStub() {
        stub.close();
    }

    @BeforeEach
    void setUp() {
        stub.reset();
        client = new EtcdClient(stub.uri(), Duration.ofSeconds(5));
    }

    @Test
    void statusReadsTheGatewaysStringEncodedNumbers() {
        stub.on("POST", "/v3/maintenance/status", Reply.json(200, STATUS_LEADER));

        EtcdStatus status = client.status();

        assertThat(status.header().clusterId()).isEqualTo("15118495548433857066");
        // Above 2^63: kept exact as the gateway's decimal string.
        assertThat(status.memberId()).isEqualTo(LEADER_ID);
        assertThat(status.header().revision()).isEqualTo(1L);
        assertThat(status.header().raftTerm()).isEqualTo(2L);
        assertThat(status.version()).isEqualTo("3.4.23");
        assertThat(status.dbSize()).isEqualTo(28672L);
        assertThat(status.dbSizeInUse()).isEqualTo(16384L);
        assertThat(status.leader()).isEqualTo(LEADER_ID);
        assertThat(status.raftIndex()).isEqualTo(4L);
        assertThat(status.raftTerm()).isEqualTo(2L);
        assertThat(status.raftAppliedIndex()).isEqualTo(4L);
        assertThat(status.isLearner()).isFalse();
        assertThat(status.errors()).isEmpty();
        assertThat(status.isLeader()).isTrue();
        assertThat(status.hasLeader()).isTrue();
        StubServer.Recorded request = stub.last();
        assertThat(request.method()).isEqualTo("POST");
        assertThat(request.body()).isEqualTo("{}");
        assertThat(request.header("Content-Type")).isEqualTo("application/json");
    }

    @Test
    void statusOfALearnerWithAnAlarm() {
        stub.on("POST", "/v3/maintenance/status", Reply.json(200, STATUS_LEARNER));

        EtcdStatus status = client.status();

        assertThat(status.isLearner()).isTrue();
        assertThat(status.isLeader()).isFalse();
        assertThat(status.errors()).singleElement().asString().contains("NOSPACE");
        assertThat(status.raftIndex()).isEqualTo(12L);
        assertThat(status.raftAppliedIndex()).isEqualTo(11L);
    }

    @Test
    void aMemberWithoutLeaderReportsNone() {
        stub.on("POST", "/v3/maintenance/status", Reply.json(200, """
                {"header":{"cluster_id":"1","member_id":"2","raft_term":"5"},"version":"3.4.23","dbSize":"1",\
                "raftIndex":"9","raftTerm":"5"}"""));

        EtcdStatus status = client.status();

        assertThat(status.hasLeader()).isFalse();
        assertThat(status.isLeader()).isFalse();
        assertThat(status.raftAppliedIndex()).isZero();
    }

    @Test
    void countersAboveLongMaxKeepTheirBits() {
        stub.on("POST", "/v3/maintenance/status", Reply.json(200, """
                {"header":{"member_id":"1"},"raftIndex":"18446744073709551615","raftTerm":7}"""));

        EtcdStatus status = client.status();

        assertThat(Long.toUnsignedString(status.raftIndex())).isEqualTo("18446744073709551615");
        assertThat(status.raftTerm()).isEqualTo(7L);
    }

    @Test
    void memberListReadsIdsNamesUrlsAndLearners() {
        stub.on("POST", "/v3/cluster/member/list", Reply.json(200, MEMBER_LIST));

        EtcdMemberList list = client.memberList();

        assertThat(list.header().memberId()).isEqualTo(LEADER_ID);
        assertThat(list.members()).extracting(EtcdMember::name).containsExactly("etcd-0", "etcd-1", "etcd-2");
        EtcdMember first = list.byId(LEADER_ID).orElseThrow();
        assertThat(first.peerUrls()).containsExactly("http://10.0.0.1:2380");
        assertThat(first.clientUrls()).containsExactly("http://10.0.0.1:2379");
        assertThat(first.isLearner()).isFalse();
        assertThat(first.isStarted()).isTrue();
        assertThat(list.byName("etcd-2").orElseThrow().isLearner()).isTrue();
        assertThat(list.voters()).extracting(EtcdMember::id).containsExactly(LEADER_ID, FOLLOWER_ID);
        assertThat(list.quorum()).isEqualTo(2);
        assertThat(stub.last().body()).isEqualTo("{}");
    }

    @Test
    void aMemberAddedButNotStartedHasNoNameYet() {
        stub.on("POST", "/v3/cluster/member/list", Reply.json(200, """
                {"header":{},"members":[{"ID":"42","peerURLs":["http://10.0.0.9:2380"],"isLearner":true}]}"""));

        EtcdMember member = client.memberList().members().get(0);

        assertThat(member.isStarted()).isFalse();
        assertThat(member.name()).isNull();
        assertThat(member.clientUrls()).isEmpty();
    }

    @Test
    void transferLeadershipSendsTheTargetIdAsString() throws IOException {
        // etcd 3.4.23 answers a successful transfer with an empty object.
        stub.on("POST", "/v3/maintenance/transfer-leadership", Reply.json(200, "{}"));

        client.transferLeadership(FOLLOWER_ID);

        JsonNode body = WorkloadJson.mapper().readTree(stub.last().body());
        assertThat(body.fieldNames()).toIterable().containsExactly("targetID");
        assertThat(body.get("targetID").isTextual()).isTrue();
        assertThat(body.get("targetID").asText()).isEqualTo(FOLLOWER_ID);
    }

    @Test
    void transferLeadershipOnAFollowerIsNotLeader() {
        stub.on("POST", "/v3/maintenance/transfer-leadership", Reply.json(412,
                "{\"error\":\"etcdserver: not leader\",\"message\":\"etcdserver: not leader\",\"code\":9}"));

        WorkloadApiException e = failure(() -> client.transferLeadership(LEADER_ID));

        assertThat(e.workload()).isEqualTo("etcd");
        assertThat(e.status()).isEqualTo(412);
        assertThat(e.path()).isEqualTo("/v3/maintenance/transfer-leadership");
        assertThat(e.errorText()).isEqualTo("etcdserver: not leader");
        assertThat(EtcdClient.isNotLeader(e)).isTrue();
        assertThat(e.isRetryable()).isFalse();
    }

    @Test
    void transferLeadershipToAnUnknownMemberIsABadTransferee() {
        // What etcd 3.4.23 answers for {"targetID": "123"}.
        stub.on("POST", "/v3/maintenance/transfer-leadership", Reply.json(412,
                "{\"error\":\"etcdserver: bad leader transferee\",\"message\":\"etcdserver: bad leader transferee\","
                        + "\"code\":9}"));

        WorkloadApiException e = failure(() -> client.transferLeadership("123"));

        assertThat(e.errorText()).isEqualTo("etcdserver: bad leader transferee");
        assertThat(EtcdClient.isNotLeader(e)).isFalse();
    }

    @Test
    void promoteSendsTheIdAndReturnsTheMembers() throws IOException {
        stub.on("POST", "/v3/cluster/member/promote", Reply.json(200, MEMBER_LIST.replace(",\"isLearner\":true", "")));

        EtcdMemberList after = client.promoteMember(LEARNER_ID);

        assertThat(after.voters()).hasSize(3);
        JsonNode body = WorkloadJson.mapper().readTree(stub.last().body());
        assertThat(body.fieldNames()).toIterable().containsExactly("ID");
        assertThat(body.get("ID").asText()).isEqualTo(LEARNER_ID);
    }

    @Test
    void promoteErrorsCarryTheGatewayMessage() {
        stub.on("POST", "/v3/cluster/member/promote", Reply.json(404,
                "{\"error\":\"etcdserver: member not found\",\"message\":\"etcdserver: member not found\",\"code\":5}"));

        assertThatThrownBy(() -> client.promoteMember("123"))
                .isInstanceOfSatisfying(WorkloadApiException.class, e -> {
                    assertThat(e.status()).isEqualTo(404);
                    assertThat(e.errorText()).isEqualTo("etcdserver: member not found");
                });

        stub.on("POST", "/v3/cluster/member/promote", Reply.json(412, "{\"error\":\"etcdserver: can only promote "
                + "a learner member which is in sync with leader\",\"message\":\"etcdserver: can only promote a "
                + "learner member which is in sync with leader\",\"code\":9}"));

        assertThatThrownBy(() -> client.promoteMember(LEARNER_ID))
                .hasMessageEndingWith("412 etcdserver: can only promote a learner member which is in sync with leader");
    }

    /** etcd 3.4.23's answer to a learner added before it started: no name, no client URLs. */
    static final String MEMBER_ADDED = """
            {"header":{"cluster_id":"15118495548433857066","member_id":"13668033151171901709","raft_term":"2"},\
            "member":{"ID":"2212341425372584193","peerURLs":["http://10.0.0.4:2380"],"isLearner":true},\
            "members":[\
            {"ID":"13668033151171901709","name":"etcd-0","peerURLs":["http://10.0.0.1:2380"],\
            "clientURLs":["http://10.0.0.1:2379"]},\
            {"ID":"2212341425372584193","peerURLs":["http://10.0.0.4:2380"],"isLearner":true}]}""";

    @Test
    void addMemberSendsPeerUrlsAndTheLearnerFlag() throws IOException {
        stub.on("POST", "/v3/cluster/member/add", Reply.json(200, MEMBER_ADDED));

        EtcdMemberAdded added = client.addMember(java.util.List.of("http://10.0.0.4:2380"), true);

        assertThat(added.member().id()).isEqualTo(LEARNER_ID);
        assertThat(added.member().isLearner()).isTrue();
        assertThat(added.member().isStarted()).isFalse();
        assertThat(added.members()).hasSize(2);
        JsonNode body = WorkloadJson.mapper().readTree(stub.last().body());
        assertThat(body.get("peerURLs").get(0).asText()).isEqualTo("http://10.0.0.4:2380");
        assertThat(body.get("isLearner").asBoolean()).isTrue();
        assertThat(stub.last().method()).isEqualTo("POST");
    }

    @Test
    void addMemberRefusalsCarryTheGatewayMessageAndAreNotRetried() {
        stub.on("POST", "/v3/cluster/member/add", Reply.json(409,
                "{\"error\":\"etcdserver: Peer URLs already exists\",\"message\":\"etcdserver: Peer URLs already exists\",\"code\":6}"));

        WorkloadApiException e = failure(() -> client.addMember(java.util.List.of("http://10.0.0.4:2380"), true));

        assertThat(e.status()).isEqualTo(409);
        assertThat(e.errorText()).isEqualTo("etcdserver: Peer URLs already exists");
        assertThat(e.isRetryable()).isFalse();
        assertThat(stub.requests()).hasSize(1);
        assertThatThrownBy(() -> client.addMember(java.util.List.of(), true)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void removeMemberSendsTheIdAndReturnsTheMembersLeft() throws IOException {
        stub.on("POST", "/v3/cluster/member/remove", Reply.json(200, MEMBER_LIST));

        EtcdMemberList left = client.removeMember(FOLLOWER_ID);

        assertThat(left.members()).hasSize(3);
        JsonNode body = WorkloadJson.mapper().readTree(stub.last().body());
        assertThat(body.fieldNames()).toIterable().containsExactly("ID");
        assertThat(body.get("ID").asText()).isEqualTo(FOLLOWER_ID);

        stub.on("POST", "/v3/cluster/member/remove", Reply.json(404,
                "{\"error\":\"etcdserver: member not found\",\"message\":\"etcdserver: member not found\",\"code\":5}"));
        WorkloadApiException gone = failure(() -> client.removeMember(FOLLOWER_ID));
        assertThat(EtcdClient.isMemberNotFound(gone)).isTrue();
        assertThat(EtcdClient.isNotLeader(gone)).isFalse();
    }

    @Test
    void grpcGatewayV2ErrorsHaveOnlyMessage() {
        stub.on("POST", "/v3/maintenance/status", Reply.json(503,
                "{\"code\":14,\"message\":\"etcdserver: no leader\",\"details\":[]}"));

        WorkloadApiException e = failure(client::status);

        assertThat(e.errorText()).isEqualTo("etcdserver: no leader");
        assertThat(e.isRetryable()).isTrue();
    }

    @Test
    void healthReadsTrueAndAnUnhealthy503() {
        stub.on("GET", "/health", new Reply(200, "text/plain; charset=utf-8", "{\"health\":\"true\"}", Duration.ZERO));

        assertThat(client.health().isHealthy()).isTrue();

        stub.on("GET", "/health", Reply.json(503, "{\"health\":\"false\",\"reason\":\"RAFT NO LEADER\"}"));

        EtcdHealth unhealthy = client.health();
        assertThat(unhealthy.isHealthy()).isFalse();
        assertThat(unhealthy.reason()).isEqualTo("RAFT NO LEADER");

        stub.on("GET", "/health", Reply.text(503, "Service Unavailable"));
        assertThatThrownBy(client::health).isInstanceOf(WorkloadApiException.class).hasMessageContaining("503");
    }

    @Test
    void aSlowMemberTimesOut() {
        stub.on("POST", "/v3/maintenance/status", Reply.json(200, STATUS_LEADER).delayedBy(Duration.ofSeconds(3)));

        long start = System.nanoTime();
        WorkloadApiException e = failure(() -> client.withTimeout(Duration.ofMillis(250)).status());

        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(2));
        assertThat(e.isTimeout()).isTrue();
        assertThat(e.isNoResponse()).isTrue();
        // A status read changes nothing: asking again is safe.
        assertThat(e.isRetryable()).isTrue();
    }

    @Test
    void aTimedOutTransferIsNotRetryable() {
        stub.on("POST", "/v3/maintenance/transfer-leadership",
                Reply.json(200, "{\"header\":{}}").delayedBy(Duration.ofSeconds(3)));

        WorkloadApiException e = failure(() -> client.withTimeout(Duration.ofMillis(250))
                .transferLeadership(FOLLOWER_ID));

        assertThat(e.isTimeout()).isTrue();
        assertThat(e.isRetryable()).isFalse();
    }

    @Test
    void authTokenIsSentAndNeverShown() {
        stub.on("POST", "/v3/maintenance/status", Reply.json(401,
                "{\"error\":\"etcdserver: invalid auth token\",\"message\":\"etcdserver: invalid auth token\",\"code\":16}"));
        EtcdClient authed = client.withAuthToken("tok.ABCDEF.123");

        WorkloadApiException e = failure(authed::status);

        assertThat(stub.last().header("Authorization")).isEqualTo("tok.ABCDEF.123");
        assertThat(e.getMessage()).doesNotContain("tok.ABCDEF.123").contains("invalid auth token");
        assertThat(authed.toString()).doesNotContain("tok.ABCDEF.123");
    }

    @Test
    void invalidIdsFailBeforeAnyRequest() {
        assertThatThrownBy(() -> client.transferLeadership("bdae9bbc11dd390d"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> client.transferLeadership("0")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> client.promoteMember("")).isInstanceOf(IllegalArgumentException.class);
        assertThat(stub.requests()).isEmpty();
    }

    @Test
    void idsConvertBetweenTheGatewaysDecimalAndEtcdctlsHex() {
        assertThat(EtcdIds.toHex(LEADER_ID)).isEqualTo("bdae9bbc11dd390d");
        assertThat(EtcdIds.fromHex("bdae9bbc11dd390d")).isEqualTo(LEADER_ID);
        assertThat(EtcdIds.fromHex("0x1EB3F9A7D2A1B201")).isEqualTo(Long.toUnsignedString(0x1EB3F9A7D2A1B201L));
        assertThat(EtcdIds.canonical("0042")).isEqualTo("42");
    }

    private static WorkloadApiException failure(ThrowingCallable call) {
        return catchThrowableOfType(WorkloadApiException.class, call);
    }
}
