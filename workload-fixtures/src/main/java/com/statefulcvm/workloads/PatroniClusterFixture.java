package com.statefulcvm.workloads;

import java.net.URI;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.StreamSupport;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A real Patroni + PostgreSQL cluster on loopback with its own 3-member etcd as DCS
 * ({@code workloads/patroni-cluster.sh}), and the simulator settings that back one simulated CVM with each node
 * ({@link #backendProperties}). Test-only passwords: see the script's header and docs/workloads.md.
 */
public final class PatroniClusterFixture implements AutoCloseable {

    public static final String SCRIPT = "patroni-cluster.sh";
    /** The CVM port of Patroni's REST API on the gateway routes. */
    public static final int REST_PORT = 8008;
    public static final String SUPERUSER = "postgres";
    public static final String SUPERUSER_PASSWORD = "fixture-superuser-secret";

    /** @param holdPort the node's hold-back agent's port (node-start-held), 0 for a cluster that has none */
    public record Node(String name, URI restApi, int pgPort, int holdPort, long pid) {
    }

    /** The CVM port of the hold-back agent on the gateway routes (lights-out.sequence-port). */
    public static final int HOLD_PORT = WorkloadScripts.HOLD_PORT;

    private final Path dir;
    private final List<Node> nodes;
    private final String initialLeader;

    private PatroniClusterFixture(Path dir, List<Node> nodes, String initialLeader) {
        this.dir = dir;
        this.nodes = new java.util.concurrent.CopyOnWriteArrayList<>(nodes);
        this.initialLeader = initialLeader;
    }

    /** Starts {@code n} nodes {@code <prefix>-0..n-1}; returns once one leads and the others stream from it. */
    public static PatroniClusterFixture start(Path dir, int n, String prefix) {
        JsonNode json = WorkloadScripts.run(180, SCRIPT, "start", dir.toString(), Integer.toString(n), prefix)
                .requireSuccess("patroni-cluster.sh start").json();
        return new PatroniClusterFixture(dir, nodes(json), json.get("leader").asText());
    }

    private static List<Node> nodes(JsonNode json) {
        return StreamSupport.stream(json.get("nodes").spliterator(), false)
                .map(PatroniClusterFixture::node)
                .toList();
    }

    private static Node node(JsonNode m) {
        return new Node(m.get("name").asText(), URI.create(m.get("restApi").asText()), m.get("pgPort").asInt(),
                m.path("holdPort").asInt(0), m.get("pid").asLong());
    }

    public Path dir() {
        return dir;
    }

    public List<Node> nodes() {
        return nodes;
    }

    public String initialLeader() {
        return initialLeader;
    }

    public Node node(String name) {
        return nodes.stream().filter(m -> m.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no node " + name));
    }

    /**
     * A further node {@code name}, not started: its ports and config only (the script's {@code prepare}); its
     * node-start (the backend's start command) clones the leader and streams from it. It is one of {@link #nodes()}
     * and of {@link #backendProperties()} from now on: prepare nodes before the application's properties are read.
     */
    public Node prepare(String name) {
        JsonNode json = WorkloadScripts.run(60, SCRIPT, "prepare", dir.toString(), name).requireSuccess("prepare " + name).json();
        Node node = node(json);
        nodes.add(node);
        return node;
    }

    /** The script's info: the current leader and pids. */
    public JsonNode info() {
        return WorkloadScripts.run(30, SCRIPT, "info", dir.toString()).requireSuccess("info").json();
    }

    public long pid(String name) {
        for (JsonNode node : info().get("nodes")) {
            if (name.equals(node.get("name").asText())) {
                return node.get("pid").asLong();
            }
        }
        throw new IllegalArgumentException("no node " + name);
    }

    /**
     * A crash of one node: SIGKILL to its Patroni and to its postmaster's whole process group, so neither can hand
     * over the leader lock nor finish a write; the node's CVM, if any, still looks running to Phala.
     */
    public void kill(String name) {
        node(name);
        WorkloadScripts.run(60, SCRIPT, "node-kill", dir.toString(), name).requireSuccess("node-kill " + name);
    }

    /** Fails unless one node leads and the others stream from it within the timeout. */
    public void awaitStreaming(int timeoutSeconds) {
        WorkloadScripts.run(timeoutSeconds + 10L, SCRIPT, "wait-streaming", dir.toString(),
                Integer.toString(timeoutSeconds)).requireSuccess("wait-streaming");
    }

    /**
     * {@code simulator.backends.<cvm>.*} for a CVM named as each node: start/stop/kill run node-start/node-stop/
     * node-kill, and the CVM's port 8008 reaches the node's REST API. PostgreSQL's protocol is not HTTP, so the gateway
     * cannot carry it: a test's SQL client connects to {@link Node#pgPort()} directly.
     */
    public Map<String, String> backendProperties() {
        Map<String, String> properties = new LinkedHashMap<>();
        for (Node node : nodes) {
            String prefix = "simulator.backends." + node.name() + ".";
            properties.put(prefix + "start", WorkloadScripts.commandLine(SCRIPT, "node-start", dir.toString(),
                    node.name()));
            properties.put(prefix + "stop", WorkloadScripts.commandLine(SCRIPT, "node-stop", dir.toString(),
                    node.name()));
            properties.put(prefix + "kill", WorkloadScripts.commandLine(SCRIPT, "node-kill", dir.toString(),
                    node.name()));
            properties.put(prefix + "ports." + REST_PORT, Integer.toString(node.restApi().getPort()));
        }
        return properties;
    }

    /**
     * {@link #backendProperties()}, but each CVM starts its node through the shipped hold-back agent (node-start-held):
     * Patroni runs only once the agent is released (POST /release), a leader already runs, or the node has no data;
     * the CVM's port {@value #HOLD_PORT} reaches the agent (lights-out.sequence-port and release-path).
     */
    public Map<String, String> heldBackendProperties() {
        Map<String, Integer> holdPorts = new LinkedHashMap<>();
        nodes.forEach(node -> holdPorts.put(node.name(), node.holdPort()));
        return WorkloadScripts.heldBackends(backendProperties(), SCRIPT, "node-start-held", dir, holdPorts);
    }

    /** The node's hold-back agent's releases ("<ISO time> released: POST /release from ..."), in order, from its events file. */
    public List<String> releases(String name) {
        return WorkloadScripts.holdbackReleases(dir.resolve(name));
    }

    /** Stops every node and the cluster's etcd; never fails. */
    @Override
    public void close() {
        WorkloadScripts.run(120, SCRIPT, "stop", dir.toString());
    }
}
