package com.statefulcvm.workloads;

import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.StreamSupport;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A real etcd cluster on loopback ({@code workloads/etcd-cluster.sh}), and the simulator settings that back one
 * simulated CVM with each member ({@link #backendProperties}).
 */
public final class EtcdClusterFixture implements AutoCloseable {

    public static final String SCRIPT = "etcd-cluster.sh";
    /** The CVM port of etcd's client API (and its v3 JSON gateway) on the gateway routes. */
    public static final int CLIENT_PORT = 2379;

    /** The CVM port of the hold-back agent on the gateway routes (the lights-out sequence and release port of etcd sets). */
    public static final int HOLD_PORT = WorkloadScripts.HOLD_PORT;

    /** @param holdPort the member's hold-back agent's port (member-start-held), 0 for a member that has none */
    public record Member(String name, URI clientUrl, URI peerUrl, int holdPort, long pid) {
        public int clientPort() {
            return clientUrl.getPort();
        }
    }

    private final Path dir;
    private final List<Member> members;

    private EtcdClusterFixture(Path dir, List<Member> members) {
        this.dir = dir;
        this.members = new java.util.concurrent.CopyOnWriteArrayList<>(members);
    }

    /** Starts {@code n} members {@code <prefix>-0..n-1} under {@code dir}; returns once every member is healthy. */
    public static EtcdClusterFixture start(Path dir, int n, String prefix) {
        JsonNode json = WorkloadScripts.run(90, SCRIPT, "start", dir.toString(), Integer.toString(n), prefix)
                .requireSuccess("etcd-cluster.sh start").json();
        return new EtcdClusterFixture(dir, members(json));
    }

    private static List<Member> members(JsonNode json) {
        return StreamSupport.stream(json.get("members").spliterator(), false)
                .map(EtcdClusterFixture::member)
                .toList();
    }

    private static Member member(JsonNode m) {
        return new Member(m.get("name").asText(), URI.create(m.get("clientURL").asText()), URI.create(m.get("peerURL").asText()),
                m.path("holdPort").asInt(0), m.get("pid").asLong());
    }

    public Path dir() {
        return dir;
    }

    public List<Member> members() {
        return members;
    }

    public Member member(String name) {
        return members.stream().filter(m -> m.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no member " + name));
    }

    /**
     * A further member {@code name}, not started: its ports and directory only (the script's {@code prepare}). Add it
     * to the cluster through etcd's API first (as a learner, with {@link Member#peerUrl()}); its member-start (the
     * backend's start command) then joins it with {@code initial-cluster-state: existing}. It is one of
     * {@link #members()} and of {@link #backendProperties()} from now on: prepare members before the application's
     * properties are read.
     */
    public Member prepare(String name) {
        JsonNode json = WorkloadScripts.run(30, SCRIPT, "prepare", dir.toString(), name).requireSuccess("prepare " + name).json();
        Member member = member(json);
        members.add(member);
        return member;
    }

    /** The members as they are now (pids 0 for stopped ones). */
    public List<Member> info() {
        return members(WorkloadScripts.run(30, SCRIPT, "info", dir.toString()).requireSuccess("info").json());
    }

    public long pid(String name) {
        return info().stream().filter(m -> m.name().equals(name)).findFirst().orElseThrow().pid();
    }

    /** True when something accepts connections on the member's client port. */
    public boolean clientPortOpen(String name) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", member(name).clientPort()), 500);
            return true;
        } catch (java.io.IOException refused) {
            return false;
        }
    }

    public void memberStop(String name) {
        WorkloadScripts.run(60, SCRIPT, "member-stop", dir.toString(), name).requireSuccess("member-stop " + name);
    }

    public void memberStart(String name) {
        WorkloadScripts.run(60, SCRIPT, "member-start", dir.toString(), name).requireSuccess("member-start " + name);
    }

    /**
     * {@code simulator.backends.<cvm>.*} for a CVM named as each member: start/stop/kill run the script's
     * member-start/member-stop/member-kill, a delete member-wipe (the disk goes with the CVM), and the CVM's port
     * 2379 reaches the member's client port.
     */
    public Map<String, String> backendProperties() {
        Map<String, String> properties = new LinkedHashMap<>();
        for (Member member : members) {
            String prefix = "simulator.backends." + member.name() + ".";
            properties.put(prefix + "start", WorkloadScripts.commandLine(SCRIPT, "member-start", dir.toString(),
                    member.name()));
            properties.put(prefix + "stop", WorkloadScripts.commandLine(SCRIPT, "member-stop", dir.toString(),
                    member.name()));
            properties.put(prefix + "kill", WorkloadScripts.commandLine(SCRIPT, "member-kill", dir.toString(),
                    member.name()));
            properties.put(prefix + "delete", WorkloadScripts.commandLine(SCRIPT, "member-wipe", dir.toString(),
                    member.name()));
            properties.put(prefix + "ports." + CLIENT_PORT, Integer.toString(member.clientPort()));
        }
        return properties;
    }

    /**
     * {@link #backendProperties()}, but each CVM starts its member through the shipped hold-back agent
     * (member-start-held, {@code --store etcd}): etcd runs only once the agent is released (POST /release), another
     * member reports a healthy cluster, or the member has no data; the CVM's port {@value #HOLD_PORT} reaches the agent.
     */
    public Map<String, String> heldBackendProperties() {
        Map<String, Integer> holdPorts = new LinkedHashMap<>();
        members.forEach(member -> holdPorts.put(member.name(), member.holdPort()));
        return WorkloadScripts.heldBackends(backendProperties(), SCRIPT, "member-start-held", dir, holdPorts);
    }

    /** The member's hold-back agent's releases ("<ISO time> released: ..."), in order, from its events file. */
    public List<String> releases(String name) {
        return WorkloadScripts.holdbackReleases(dir.resolve(name));
    }

    /** Stops every member; never fails (the cluster may already be down). */
    @Override
    public void close() {
        WorkloadScripts.run(60, SCRIPT, "stop", dir.toString());
    }
}
