package com.statefulcvm.simulator.web;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Optional;
import java.util.Map;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import com.statefulcvm.simulator.cloud.SimulatedCloud;
import com.statefulcvm.simulator.cloud.Upstream;
import com.statefulcvm.simulator.cloud.WorkloadMember;
import com.statefulcvm.simulator.cloud.WorkloadRefusal;
import com.statefulcvm.simulator.cloud.WorkloadView;

/**
 * A simulated Consul HTTP API behind every CVM's gateway route (any port; the orchestrator asks on 8500), the servers
 * and leader being the app's simulated workload ({@code AppLeadership}): the status, raft operator and autopilot
 * endpoints and the agent's leave that our {@code ConsulClient} calls. Every member is a server and a voter; a stopped
 * one stays in the raft configuration (autopilot reports it {@code failed}, unhealthy) until it leaves, another server
 * removes it (remove-peer) or its CVM is deleted. {@code /v1/status/leader} is also the demo's health check: a member marked unhealthy answers it 503.
 */
@RestController
@RequestMapping(ApiPaths.GATEWAY)
@ConditionalOnProperty(prefix = "simulator", name = "enabled", havingValue = "true")
public class SimulatedConsulController {

    static final int RAFT_PORT = 8300;
    private static final String VERSION = "1.20.1";
    private static final String NO_LEADER = "No cluster leader";

    private final SimulatedCloud cloud;

    public SimulatedConsulController(SimulatedCloud cloud) {
        this.cloud = cloud;
    }

    /** The leader's raft address as a JSON string, {@code ""} without one; 503 on a member marked unhealthy. */
    @GetMapping("/{target}/v1/status/leader")
    ResponseEntity<String> leader(@PathVariable String target) {
        return WorkloadAnswers.answer(cloud.workload(target), view -> {
            if (view.askedUpstream() != Upstream.HEALTHY) {
                return WorkloadAnswers.health(view.askedUpstream());
            }
            return WorkloadAnswers.json(200, view.leader()
                    .map(leader -> WorkloadAnswers.address(leader.address(), RAFT_PORT)).orElse(""));
        });
    }

    /** The voters' raft addresses. */
    @GetMapping("/{target}/v1/status/peers")
    ResponseEntity<String> peers(@PathVariable String target) {
        return WorkloadAnswers.answer(cloud.workload(target), view -> WorkloadAnswers.json(200, servers(view).stream()
                .filter(m -> !m.learner()).map(m -> WorkloadAnswers.address(m.address(), RAFT_PORT)).toList()));
    }

    /** {@code {"Servers": [{ID, Node, Address, Leader, Voter, ProtocolVersion}], "Index"}}; 500 without a leader. */
    @GetMapping("/{target}/v1/operator/raft/configuration")
    ResponseEntity<String> raftConfiguration(@PathVariable String target,
            @RequestParam(required = false) String stale) {
        return WorkloadAnswers.answer(cloud.workload(target), view -> {
            if (view.leader().isEmpty() && stale == null) {
                return WorkloadAnswers.text(500, NO_LEADER);
            }
            List<Map<String, Object>> servers = new ArrayList<>();
            for (WorkloadMember m : servers(view)) {
                Map<String, Object> server = new LinkedHashMap<>();
                server.put("ID", m.raftId());
                server.put("Node", m.name());
                server.put("Address", WorkloadAnswers.address(m.address(), RAFT_PORT));
                server.put("Leader", m.leader());
                server.put("Voter", !m.learner());
                server.put("ProtocolVersion", "3");
                servers.add(server);
            }
            return WorkloadAnswers.json(200, Map.of("Servers", servers, "Index", view.index()));
        });
    }

    /**
     * Overall health and failure tolerance (healthy voters minus the quorum, never below 0) and each server's health;
     * 200 when every server is healthy, else 429 with the same body; 500 without a leader.
     */
    @GetMapping("/{target}/v1/operator/autopilot/health")
    ResponseEntity<String> autopilotHealth(@PathVariable String target) {
        return WorkloadAnswers.answer(cloud.workload(target), view -> {
            if (view.leader().isEmpty()) {
                return WorkloadAnswers.text(500, NO_LEADER);
            }
            List<WorkloadMember> members = servers(view);
            List<Map<String, Object>> servers = new ArrayList<>();
            for (WorkloadMember m : members) {
                Map<String, Object> server = new LinkedHashMap<>();
                server.put("ID", m.raftId());
                server.put("Name", m.name());
                server.put("Address", WorkloadAnswers.address(m.address(), RAFT_PORT));
                server.put("SerfStatus", m.running() ? "alive" : "failed");
                server.put("Version", VERSION);
                server.put("Leader", m.leader());
                server.put("LastContact", m.leader() ? "0s" : m.running() ? "11.5ms" : "-1ns");
                server.put("LastTerm", view.term());
                server.put("LastIndex", m.running() ? view.index() : 0);
                server.put("Healthy", m.healthy());
                server.put("Voter", !m.learner());
                server.put("StableSince", "2026-01-01T00:00:00Z");
                servers.add(server);
            }
            long voters = members.stream().filter(m -> !m.learner()).count();
            long healthyVoters = members.stream().filter(m -> !m.learner() && m.healthy()).count();
            boolean healthy = members.stream().allMatch(WorkloadMember::healthy);
            long tolerance = Math.max(0, healthyVoters - (voters / 2 + 1));
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("Healthy", healthy);
            body.put("FailureTolerance", tolerance);
            body.put("Servers", servers);
            return WorkloadAnswers.json(healthy ? 200 : 429, body);
        });
    }

    /** Leadership moves to the voter with raft ID {@code id}, or one Consul picks; {@code {"Success": true}}. */
    @PostMapping("/{target}/v1/operator/raft/transfer-leader")
    ResponseEntity<String> transferLeader(@PathVariable String target, @RequestParam(required = false) String id) {
        return WorkloadAnswers.answer(cloud.workload(target), view -> {
            try {
                boolean any = id == null || id.isBlank();
                cloud.transferLeadership(target, any ? null : m -> id.trim().equals(m.raftId()),
                        any ? "cannot find peer to transfer leadership to" : "cannot find peer: " + id.trim());
                return WorkloadAnswers.json(200, Map.of("Success", true));
            } catch (WorkloadRefusal refusal) {
                return WorkloadAnswers.text(500, refusal.getMessage());
            }
        });
    }

    /** The agent leaves: its server is out of the raft configuration (and no longer leads) until its CVM boots again. */
    @PutMapping("/{target}/v1/agent/leave")
    ResponseEntity<String> leave(@PathVariable String target) {
        return WorkloadAnswers.answer(cloud.workload(target), view -> {
            cloud.leaveWorkload(target);
            return WorkloadAnswers.text(200, "");
        });
    }

    /**
     * {@code consul operator raft remove-peer}, asked of any server: the server with raft ID {@code id} leaves the raft
     * configuration (a stopped one cannot leave by itself); 500 as Consul answers when no server has that ID.
     */
    @DeleteMapping("/{target}/v1/operator/raft/peer")
    ResponseEntity<String> removePeer(@PathVariable String target, @RequestParam String id) {
        return WorkloadAnswers.answer(cloud.workload(target), view -> {
            Optional<WorkloadMember> peer = servers(view).stream().filter(m -> id.trim().equals(m.raftId())).findFirst();
            if (peer.isEmpty()) {
                return WorkloadAnswers.text(500, "id \"" + id.trim() + "\" was not found in the Raft configuration");
            }
            cloud.removeWorkloadMember(target, peer.get().id());
            return WorkloadAnswers.text(200, "");
        });
    }

    /** Every member with a CVM (an etcd member announced and not started has none). */
    private static List<WorkloadMember> servers(WorkloadView view) {
        return view.members().stream().filter(m -> !m.pending()).toList();
    }
}
