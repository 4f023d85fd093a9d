package com.statefulcvm.workloads;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.StreamSupport;

/**
 * A real MariaDB Galera cluster on loopback ({@code workloads/galera-cluster.sh}): Debian's mariadb-server and
 * galera-4, each member with its own ports and data under {@code dir}, state transfers by rsync. Members can be
 * stopped (grastate.dat keeps the seqno), killed (seqno -1) and started through the shipped hold-back agent
 * ({@code --store galera}), whose {@code /sequence} and {@code /release} a lights-out recovery uses.
 */
public final class GaleraClusterFixture implements AutoCloseable {

    public static final String SCRIPT = "galera-cluster.sh";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    public record Member(String name, int port, int galeraPort, int holdPort) {
    }

    private final Path dir;
    private final List<Member> members;

    private GaleraClusterFixture(Path dir, List<Member> members) {
        this.dir = dir;
        this.members = members;
    }

    /** Starts {@code n} members {@code <prefix>-0..n-1}; returns once every one is Synced. */
    public static GaleraClusterFixture start(Path dir, int n, String prefix) {
        JsonNode json = WorkloadScripts.run(300, SCRIPT, "start", dir.toString(), Integer.toString(n), prefix)
                .requireSuccess("galera-cluster.sh start").json();
        List<Member> members = StreamSupport.stream(json.get("members").spliterator(), false)
                .map(m -> new Member(m.get("name").asText(), m.get("port").asInt(), m.get("galeraPort").asInt(), m.get("holdPort").asInt()))
                .toList();
        return new GaleraClusterFixture(dir, members);
    }

    /** Restarts each member through its hold-back agent, one at a time, each Synced before the next. */
    public GaleraClusterFixture holdAll() {
        WorkloadScripts.run(300, SCRIPT, "hold-all", dir.toString()).requireSuccess("galera-cluster.sh hold-all");
        return this;
    }

    /**
     * {@code simulator.backends.<cvm>.*} for a CVM named as each member: start runs member-start-held (the agent, as a
     * compose with it would), stop member-stop, kill member-kill; the CVM's port {@value WorkloadScripts#HOLD_PORT}
     * reaches the agent (its /sequence, /release and /health).
     */
    public java.util.Map<String, String> heldBackendProperties() {
        java.util.Map<String, String> properties = new java.util.LinkedHashMap<>();
        for (Member member : members) {
            String prefix = "simulator.backends." + member.name() + ".";
            properties.put(prefix + "stop", WorkloadScripts.commandLine(SCRIPT, "member-stop", dir.toString(), member.name()));
            properties.put(prefix + "kill", WorkloadScripts.commandLine(SCRIPT, "member-kill", dir.toString(), member.name()));
            properties.put(prefix + "command-timeout", "PT150S");
        }
        java.util.Map<String, Integer> holdPorts = new java.util.LinkedHashMap<>();
        members.forEach(member -> holdPorts.put(member.name(), member.holdPort()));
        return WorkloadScripts.heldBackends(properties, SCRIPT, "member-start-held", dir, holdPorts);
    }

    public List<Member> members() {
        return members;
    }

    public Member member(String name) {
        return members.stream().filter(m -> m.name().equals(name)).findFirst().orElseThrow();
    }

    public Path dir() {
        return dir;
    }

    /** SQL on the member, as root through its socket; the rows tab-separated. */
    public WorkloadScripts.Result sql(String name, String statement) {
        return WorkloadScripts.run(30, SCRIPT, "sql", dir.toString(), name, statement);
    }

    /** The member's wsrep status variable ({@code wsrep_local_state}, {@code wsrep_cluster_size}), or null. */
    public String status(String name, String variable) {
        WorkloadScripts.Result result = sql(name, "SHOW STATUS LIKE '" + variable + "'");
        if (result.exitCode() != 0) {
            return null;
        }
        return result.output().lines().filter(l -> l.startsWith(variable + "\t")).map(l -> l.substring(variable.length() + 1))
                .findFirst().orElse(null);
    }

    public boolean synced(String name) {
        return "4".equals(status(name, "wsrep_local_state"));
    }

    public void memberStop(String name) {
        WorkloadScripts.run(120, SCRIPT, "member-stop", dir.toString(), name).requireSuccess("member-stop " + name);
    }

    public void memberKill(String name) {
        WorkloadScripts.run(30, SCRIPT, "member-kill", dir.toString(), name).requireSuccess("member-kill " + name);
    }

    public void memberStartHeld(String name) {
        WorkloadScripts.run(60, SCRIPT, "member-start-held", dir.toString(), name).requireSuccess("member-start-held " + name);
    }

    /** The held-back agent's {@code GET /sequence}: {"sequence", "uuid", "safeToBootstrap", "recovered"}. */
    public JsonNode sequence(String name) throws IOException, InterruptedException {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(agent(name, "/sequence")).timeout(Duration.ofSeconds(150))
                .GET().build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IllegalStateException(name + "'s agent answered " + response.statusCode() + ": " + response.body());
        }
        return JSON.readTree(response.body());
    }

    /** {@code POST /release} with the recovery's body ({"role", "seed", "primaries"}); the agent's status. */
    public int release(String name, String body) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(agent(name, "/release")).timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    /** The agent's releases ("<ISO time> released: ..."), in order. */
    public List<String> releases(String name) {
        return WorkloadScripts.holdbackReleases(dir.resolve(name));
    }

    private URI agent(String name, String path) {
        return URI.create("http://127.0.0.1:" + member(name).holdPort() + path);
    }

    /** Stops every member; never fails. */
    @Override
    public void close() {
        WorkloadScripts.run(300, SCRIPT, "stop", dir.toString());
    }
}
