package com.statefulcvm.simulator.web;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import com.fasterxml.jackson.databind.JsonNode;
import com.statefulcvm.simulator.cloud.SimulatedCloud;
import com.statefulcvm.simulator.cloud.WorkloadMember;
import com.statefulcvm.simulator.cloud.WorkloadRefusal;
import com.statefulcvm.simulator.cloud.WorkloadView;

/**
 * A simulated Patroni REST API behind every CVM's gateway route (any port; the orchestrator asks on 8008), the members
 * and leader being the app's simulated workload ({@code AppLeadership}): {@code GET /cluster}, {@code /patroni},
 * {@code /replica}, {@code POST /switchover} and {@code /failover}, in the shapes of Patroni 3.3 that our
 * {@code PatroniClient} reads. {@code GET /leader} is {@link GatewayController}'s role probe; {@code /health} stays the
 * gateway's health answer (200 or 503, as Patroni's). A member marked unhealthy reports PostgreSQL {@code stopped}.
 * Every replica streams with no lag: the simulator has no data.
 */
@RestController
@RequestMapping(ApiPaths.GATEWAY)
@ConditionalOnProperty(prefix = "simulator", name = "enabled", havingValue = "true")
public class SimulatedPatroniController {

    static final int POSTGRES_PORT = 5432;
    static final int REST_PORT = 8008;
    private static final String VERSION = "3.3.2";

    private final SimulatedCloud cloud;

    public SimulatedPatroniController(SimulatedCloud cloud) {
        this.cloud = cloud;
    }

    /** Every running member, by name: role {@code leader} or {@code replica}, state, timeline, lag and positions. */
    @GetMapping("/{target}/cluster")
    ResponseEntity<String> cluster(@PathVariable String target) {
        return WorkloadAnswers.answer(cloud.workload(target), view -> {
            List<Map<String, Object>> members = new ArrayList<>();
            for (WorkloadMember m : view.runningMembers()) {
                Map<String, Object> member = new LinkedHashMap<>();
                member.put("name", m.name());
                member.put("role", m.leader() ? "leader" : "replica");
                member.put("state", !m.healthy() ? "stopped" : m.leader() ? "running" : "streaming");
                member.put("api_url", "http://" + m.address() + ":" + REST_PORT + "/patroni");
                member.put("host", m.address());
                member.put("port", POSTGRES_PORT);
                if (m.healthy()) {
                    member.put("timeline", view.term());
                    member.put("lsn", lsn(wal(view)));
                }
                if (!m.leader()) {
                    Object lag = m.healthy() ? (Object) 0 : "unknown";
                    member.put("receive_lag", lag);
                    member.put("replay_lag", lag);
                    member.put("lag", lag);
                }
                members.add(member);
            }
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("members", members);
            body.put("scope", view.appName());
            return WorkloadAnswers.json(200, body);
        });
    }

    /** The member's own status: a primary's WAL location and its streaming replicas, or a replica's positions. */
    @GetMapping("/{target}/patroni")
    ResponseEntity<String> patroni(@PathVariable String target) {
        return WorkloadAnswers.answer(cloud.workload(target), view -> WorkloadAnswers.json(200, status(view)));
    }

    /** 200 on a running replica (not the leader, PostgreSQL up), else 503; {@code ?lag=} passes: there is no lag. */
    @GetMapping("/{target}/replica")
    ResponseEntity<String> replica(@PathVariable String target) {
        return WorkloadAnswers.answer(cloud.workload(target), view -> {
            WorkloadMember self = view.self().orElseThrow();
            return WorkloadAnswers.json(!self.leader() && self.healthy() ? 200 : 503, status(view));
        });
    }

    /**
     * {@code {"leader", "candidate"}}: the leader hands over to the candidate (a running member), or with none to the
     * first replica by name. 200 {@code Successfully switched over to "X"}; 412 as Patroni refuses; scheduled
     * switchovers are not simulated (400).
     */
    @PostMapping("/{target}/switchover")
    ResponseEntity<String> switchover(@PathVariable String target, @RequestBody(required = false) JsonNode body) {
        return WorkloadAnswers.answer(cloud.workload(target), view -> {
            if (text(body, "scheduled_at") != null) {
                return WorkloadAnswers.text(400, "scheduled switchovers are not simulated");
            }
            String leader = text(body, "leader");
            if (leader == null) {
                return WorkloadAnswers.text(400, "Switchover could be performed only from a specific leader");
            }
            try {
                String to = cloud.switchover(target, leader, text(body, "candidate"));
                return WorkloadAnswers.text(200, "Successfully switched over to \"" + to + "\"");
            } catch (WorkloadRefusal refusal) {
                return WorkloadAnswers.text(refusal.status(), refusal.getMessage());
            }
        });
    }

    /** {@code {"candidate"}}: the candidate leads, whether the leader was healthy or not. */
    @PostMapping("/{target}/failover")
    ResponseEntity<String> failover(@PathVariable String target, @RequestBody(required = false) JsonNode body) {
        return WorkloadAnswers.answer(cloud.workload(target), view -> {
            String candidate = text(body, "candidate");
            if (candidate == null) {
                return WorkloadAnswers.text(400, "Failover could be performed only to a specific candidate");
            }
            try {
                String to = cloud.failover(target, candidate);
                return WorkloadAnswers.text(200, "Successfully failed over to \"" + to + "\"");
            } catch (WorkloadRefusal refusal) {
                return WorkloadAnswers.text(refusal.status(), refusal.getMessage());
            }
        });
    }

    private static Map<String, Object> status(WorkloadView view) {
        WorkloadMember self = view.self().orElseThrow();
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("state", self.healthy() ? "running" : "stopped");
        body.put("role", self.leader() ? "primary" : "replica");
        body.put("server_version", 160004);
        if (self.healthy()) {
            long wal = wal(view);
            if (self.leader()) {
                body.put("xlog", Map.of("location", wal));
                body.put("replication", view.runningMembers().stream()
                        .filter(m -> !m.leader() && m.healthy())
                        .map(m -> Map.of("usename", "replicator", "application_name", m.name(),
                                "client_addr", String.valueOf(m.address()), "state", "streaming",
                                "sync_state", "async", "sync_priority", 0))
                        .toList());
            } else {
                body.put("xlog", Map.of("received_location", wal, "replayed_location", wal, "paused", false));
                body.put("replication_state", "streaming");
            }
            body.put("timeline", view.term());
        }
        if (view.leader().isEmpty()) {
            body.put("cluster_unlocked", true);
        }
        body.put("database_system_identifier", view.clusterId());
        body.put("patroni", Map.of("version", VERSION, "scope", String.valueOf(view.appName()), "name", self.name()));
        return body;
    }

    /** Every member is at the same WAL position, which moves on with each change of members or leader. */
    private static long wal(WorkloadView view) {
        return 0x3000000L + view.index() * 0x1000L;
    }

    private static String lsn(long wal) {
        return Long.toHexString(wal >>> 32).toUpperCase() + "/" + Long.toHexString(wal & 0xffffffffL).toUpperCase();
    }

    private static String text(JsonNode body, String field) {
        JsonNode value = body == null ? null : body.get(field);
        return value == null || value.isNull() || value.asText().isBlank() ? null : value.asText();
    }
}
