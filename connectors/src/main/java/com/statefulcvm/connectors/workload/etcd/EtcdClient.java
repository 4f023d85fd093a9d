package com.statefulcvm.connectors.workload.etcd;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.statefulcvm.connectors.workload.WorkloadApiException;
import com.statefulcvm.connectors.workload.WorkloadHttp;
import com.statefulcvm.connectors.workload.WorkloadHttp.Answer;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.Locale;

/**
 * etcd's v3 JSON gateway (grpc-gateway, served on the client port, 2379 by default) on one member, addressed by a base
 * URI: that member's gateway URL for its client port, e.g. {@code InstanceUrlTemplate.resolve(cvm, 2379, null)}, or
 * {@code http://127.0.0.1:2379} for a local process. Knows nothing of Camunda. Paths are the {@code /v3/...} ones of
 * etcd 3.4 and later.
 *
 * <p>The gateway writes uint64 and int64 as JSON strings: IDs stay decimal strings ({@link EtcdIds} converts to the
 * hex {@code etcdctl} shows), counters are read as unsigned into {@code long}.
 *
 * <p>Errors carry the gateway's {@code message}, e.g. 412 {@code etcdserver: not leader} or
 * {@code etcdserver: bad leader transferee}, 404 {@code etcdserver: member not found}. An auth token
 * ({@link #withAuthToken(String)}, from {@code /v3/auth/authenticate}) is never logged. See
 * <a href="https://etcd.io/docs/v3.5/dev-guide/api_grpc_gateway/">gRPC gateway</a> and
 * <a href="https://etcd.io/docs/v3.5/dev-guide/api_reference_v3/">API reference</a>.
 */
public final class EtcdClient {

    public static final int DEFAULT_PORT = 2379;
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(5);

    static final String WORKLOAD = "etcd";
    private static final String EMPTY_REQUEST = "{}";

    private final WorkloadHttp http;

    public EtcdClient(URI baseUri) {
        this(baseUri, DEFAULT_TIMEOUT);
    }

    public EtcdClient(URI baseUri, Duration timeout) {
        this(baseUri, timeout, WorkloadHttp.sharedHttpClient());
    }

    public EtcdClient(URI baseUri, Duration timeout, HttpClient httpClient) {
        this(new WorkloadHttp(WORKLOAD, baseUri, timeout, httpClient));
    }

    private EtcdClient(WorkloadHttp http) {
        this.http = http;
    }

    /** The same member with another per-call timeout. */
    public EtcdClient withTimeout(Duration timeout) {
        return new EtcdClient(http.withTimeout(timeout));
    }

    /** The same member, sending an auth token (from {@code /v3/auth/authenticate}) as {@code Authorization}. */
    public EtcdClient withAuthToken(String token) {
        return new EtcdClient(http.withHeader("Authorization", token));
    }

    public URI baseUri() {
        return http.baseUri();
    }

    public Duration timeout() {
        return http.timeout();
    }

    /** {@code POST /v3/maintenance/status {}}: this member's version, leader, raft index and term, learner flag. */
    public EtcdStatus status() {
        return http.read(http.expect(post("/v3/maintenance/status", EMPTY_REQUEST, true), 200), EtcdStatus.class);
    }

    /** {@code POST /v3/cluster/member/list {}}: every member with ID, name, peer and client URLs, learner flag. */
    public EtcdMemberList memberList() {
        return http.read(http.expect(post("/v3/cluster/member/list", EMPTY_REQUEST, true), 200), EtcdMemberList.class);
    }

    /**
     * {@code POST /v3/maintenance/transfer-leadership {"targetID"}}: the leader hands leadership to {@code targetId}
     * and answers once the transferee leads (etcd 3.4 sends an empty {@code {}}). Must be sent to the current leader's
     * URL (find it with {@link #status()}); a follower answers 412 {@code etcdserver: not leader} (see
     * {@link #isNotLeader(WorkloadApiException)}). Confirm with {@link #status()} on the transferee.
     *
     * @param targetId the transferee's ID in decimal, as {@link EtcdMember#id()} gives it
     * @throws WorkloadApiException e.g. 412 {@code etcdserver: bad leader transferee} for an unknown or learner
     *                              target, 412 {@code etcdserver: not leader}, no answer when the transfer outlasts the
     *                              timeout (it may still complete: read the status again)
     */
    public void transferLeadership(String targetId) {
        String id = EtcdIds.canonical(targetId);
        http.expect(post("/v3/maintenance/transfer-leadership", new MoveLeaderRequest(id), false), 200);
    }

    /**
     * {@code POST /v3/cluster/member/promote {"ID"}}: make a learner a voting member; any member forwards it to the
     * leader. etcd refuses while the learner has not caught up (412
     * {@code etcdserver: can only promote a learner member which is in sync with leader}) and for a voter (412
     * {@code etcdserver: can only promote a learner member}).
     *
     * @param memberId the learner's ID in decimal
     * @return the members after the promotion
     */
    public EtcdMemberList promoteMember(String memberId) {
        String id = EtcdIds.canonical(memberId);
        Answer answer = post("/v3/cluster/member/promote", new PromoteRequest(id), false);
        return http.read(http.expect(answer, 200), EtcdMemberList.class);
    }

    /**
     * {@code POST /v3/cluster/member/add {"peerURLs", "isLearner"}}: announce a member before it starts (a new member
     * must start with {@code initial-cluster-state: existing} against a cluster that knows its peer URL). A learner does
     * not vote, so adding it never changes the quorum; promote it with {@link #promoteMember(String)} once it is in sync.
     * Not idempotent: look for a member with the peer URL in {@link #memberList()} first. etcd refuses a peer URL that a
     * member has already (409 {@code etcdserver: Peer URLs already exists}) and, by default, a second learner or a voter
     * that would leave the cluster without quorum while it starts (412 {@code etcdserver: unhealthy cluster}).
     *
     * @param peerUrls the URLs the new member will advertise to its peers
     * @param learner  true to add a non-voting learner
     */
    public EtcdMemberAdded addMember(java.util.List<String> peerUrls, boolean learner) {
        if (peerUrls == null || peerUrls.isEmpty()) {
            throw new IllegalArgumentException("a new member needs at least one peer URL");
        }
        Answer answer = post("/v3/cluster/member/add", new AddRequest(java.util.List.copyOf(peerUrls), learner), false);
        return http.read(http.expect(answer, 200), EtcdMemberAdded.class);
    }

    /**
     * {@code POST /v3/cluster/member/remove {"ID"}}: the member leaves the cluster for good (it stops itself once it
     * learns so; its data cannot join again). Any member forwards it to the leader. Removing the leader works, but
     * moves leadership abruptly: transfer leadership first. 404 {@code etcdserver: member not found} for an ID that is
     * not (or no longer) a member: see {@link #isMemberNotFound(WorkloadApiException)}.
     *
     * @param memberId the member's ID in decimal
     * @return the members after the removal
     */
    public EtcdMemberList removeMember(String memberId) {
        String id = EtcdIds.canonical(memberId);
        Answer answer = post("/v3/cluster/member/remove", new PromoteRequest(id), false);
        return http.read(http.expect(answer, 200), EtcdMemberList.class);
    }

    /** Whether a failure is etcd saying the member is not (or no longer) in the cluster. */
    public static boolean isMemberNotFound(WorkloadApiException e) {
        String text = e.errorText();
        return text != null && text.toLowerCase(Locale.ROOT).contains("member not found");
    }

    /**
     * {@code GET /health}: {@code {"health": "true"}}. A 503 with a health body is an answer too (unhealthy), not an
     * exception.
     */
    public EtcdHealth health() {
        Answer answer = http.call("GET", "/health", null, null, true);
        if (answer.is(200) || answer.is(503) && answer.body().trim().startsWith("{")) {
            return http.read(answer, EtcdHealth.class);
        }
        throw http.failure(answer);
    }

    /** Whether a failure is etcd refusing because the member that was asked is not the leader. */
    public static boolean isNotLeader(WorkloadApiException e) {
        String text = e.errorText();
        return text != null && text.toLowerCase(Locale.ROOT).contains("not leader");
    }

    @Override
    public String toString() {
        return "EtcdClient" + http;
    }

    private Answer post(String path, Object body, boolean idempotent) {
        return http.call("POST", path, null, body, idempotent);
    }

    /** uint64 as a decimal string: the gateway's own form, exact for every ID. */
    record MoveLeaderRequest(@JsonProperty("targetID") String targetId) {
    }

    /** promote and remove: the member's ID as the gateway's decimal string. */
    record PromoteRequest(@JsonProperty("ID") String id) {
    }

    record AddRequest(@JsonProperty("peerURLs") java.util.List<String> peerUrls, @JsonProperty("isLearner") boolean isLearner) {
    }
}
