package com.statefulcvm.connectors.workload.consul;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.statefulcvm.connectors.workload.WorkloadApiException;
import com.statefulcvm.connectors.workload.WorkloadHttp;
import com.statefulcvm.connectors.workload.WorkloadHttp.Answer;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.Optional;

/**
 * Consul's HTTP API on one agent (a server of the replica set), addressed by a base URI: that agent's gateway URL for
 * its HTTP port (8500 by default), e.g. {@code InstanceUrlTemplate.resolve(cvm, 8500, null)}. Knows nothing of
 * Camunda. The operator endpoints are forwarded to the leader by whichever server is asked; {@link #leave()} acts on
 * the agent asked.
 *
 * <p>An ACL token ({@link #withToken(String)}) goes in {@code X-Consul-Token} and is never logged. Failures carry
 * Consul's plain-text error, e.g. 403 {@code Permission denied}, 500 {@code No cluster leader}. See
 * <a href="https://developer.hashicorp.com/consul/api-docs/operator/raft">Raft operator API</a>,
 * <a href="https://developer.hashicorp.com/consul/api-docs/operator/autopilot">Autopilot operator API</a>,
 * <a href="https://developer.hashicorp.com/consul/api-docs/status">Status API</a> and
 * <a href="https://developer.hashicorp.com/consul/api-docs/agent">Agent API</a>.
 */
public final class ConsulClient {

    public static final int DEFAULT_PORT = 8500;
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(5);
    public static final String TOKEN_HEADER = "X-Consul-Token";

    static final String WORKLOAD = "Consul";

    private final WorkloadHttp http;

    public ConsulClient(URI baseUri) {
        this(baseUri, DEFAULT_TIMEOUT);
    }

    public ConsulClient(URI baseUri, Duration timeout) {
        this(baseUri, timeout, WorkloadHttp.sharedHttpClient());
    }

    public ConsulClient(URI baseUri, Duration timeout, HttpClient httpClient) {
        this(new WorkloadHttp(WORKLOAD, baseUri, timeout, httpClient));
    }

    private ConsulClient(WorkloadHttp http) {
        this.http = http;
    }

    /** The same agent with another per-call timeout. */
    public ConsulClient withTimeout(Duration timeout) {
        return new ConsulClient(http.withTimeout(timeout));
    }

    /** The same agent, sending this ACL token on every call; null or blank sends none. */
    public ConsulClient withToken(String aclToken) {
        return new ConsulClient(http.withHeader(TOKEN_HEADER, aclToken));
    }

    public URI baseUri() {
        return http.baseUri();
    }

    public Duration timeout() {
        return http.timeout();
    }

    /**
     * {@code GET /v1/status/leader}: the raft leader's {@code IP:port}, as a JSON string.
     *
     * @return empty when the datacenter has no leader (Consul answers {@code ""})
     */
    public Optional<String> leader() {
        String address = http.read(http.expect(get("/v1/status/leader", null), 200), String.class);
        return address.isBlank() ? Optional.empty() : Optional.of(address);
    }

    /** {@code GET /v1/operator/raft/configuration}: the raft servers (ID, node, address, leader, voter) and index. */
    public ConsulRaftConfiguration raftConfiguration() {
        return raftConfiguration(false);
    }

    /**
     * @param stale read it from the asked server even without a leader ({@code ?stale}); otherwise Consul answers 500
     *              {@code No cluster leader} when there is none
     */
    public ConsulRaftConfiguration raftConfiguration(boolean stale) {
        Answer answer = get("/v1/operator/raft/configuration", stale ? WorkloadHttp.query("stale", "") : null);
        return http.read(http.expect(answer, 200), ConsulRaftConfiguration.class);
    }

    /**
     * {@code POST /v1/operator/raft/transfer-leader}: the leader hands leadership to a server Consul picks.
     *
     * @return Consul's {@code Success}
     */
    public boolean transferLeader() {
        return transferLeader(null);
    }

    /**
     * {@code POST /v1/operator/raft/transfer-leader?id=...}: hand leadership to the voter with this raft ID
     * ({@link ConsulRaftServer#id()}); null or blank lets Consul pick.
     *
     * @return Consul's {@code Success}
     * @throws WorkloadApiException when Consul refuses (e.g. an unknown or non-voting target, or no leader)
     */
    public boolean transferLeader(String id) {
        String query = id == null || id.isBlank() ? null : WorkloadHttp.query("id", id.trim());
        Answer answer = http.expect(http.call("POST", "/v1/operator/raft/transfer-leader", query, null, false), 200);
        return http.read(answer, TransferLeaderResponse.class).success();
    }

    /**
     * {@code GET /v1/operator/autopilot/health}: overall health, failure tolerance and each server's health. The 429
     * Consul sends when the cluster is unhealthy is read like the 200.
     */
    public ConsulAutopilotHealth autopilotHealth() {
        Answer answer = http.expect(get("/v1/operator/autopilot/health", null), 200, 429);
        return http.read(answer, ConsulAutopilotHealth.class);
    }

    /**
     * {@code PUT /v1/agent/leave}: this agent leaves gracefully and shuts down; a server is removed from the raft
     * peer set. Not for a restart: a left server needs to join again.
     */
    public void leave() {
        http.expect(http.call("PUT", "/v1/agent/leave", null, null, false), 200);
    }

    /**
     * {@code DELETE /v1/operator/raft/peer?id=...}, asked of another server: removes a server that cannot leave by
     * itself (its CVM stopped or gone) from the raft peer set, as {@code consul operator raft remove-peer} does.
     *
     * @throws WorkloadApiException when Consul refuses (e.g. no leader, or an ID not in the configuration)
     */
    public void removeRaftPeer(String id) {
        http.expect(http.call("DELETE", "/v1/operator/raft/peer", WorkloadHttp.query("id", id), null, false), 200);
    }

    @Override
    public String toString() {
        return "ConsulClient" + http;
    }

    private Answer get(String path, String query) {
        return http.call("GET", path, query, null, true);
    }

    record TransferLeaderResponse(@JsonProperty("Success") boolean success) {
    }
}
