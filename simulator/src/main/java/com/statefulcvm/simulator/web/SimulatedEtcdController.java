package com.statefulcvm.simulator.web;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

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
import com.statefulcvm.simulator.cloud.Upstream;
import com.statefulcvm.simulator.cloud.WorkloadMember;
import com.statefulcvm.simulator.cloud.WorkloadRefusal;
import com.statefulcvm.simulator.cloud.WorkloadView;

/**
 * A simulated etcd v3 JSON gateway behind every CVM's gateway route (any port; the orchestrator asks on 2379), the
 * members and leader being the app's simulated workload ({@code AppLeadership}): the member list, add, promote and
 * remove, the maintenance status and leadership transfer that our {@code EtcdClient} calls, and {@code GET /health} on
 * port {@value #CLIENT_PORT} (any other port's {@code /health} is the gateway's health answer). uint64 values are
 * decimal strings and default values are left out, as the gateway writes them; refusals are
 * {@code {"error", "code", "message"}} with etcd's own texts. A member marked unhealthy does not answer its status
 * (503), as an unreachable one; every learner is in sync as soon as its CVM runs.
 */
@RestController
@RequestMapping(ApiPaths.GATEWAY)
@ConditionalOnProperty(prefix = "simulator", name = "enabled", havingValue = "true")
public class SimulatedEtcdController {

    static final int CLIENT_PORT = 2379;
    private static final String VERSION = "3.5.17";

    private final SimulatedCloud cloud;
    private final SimulatedHoldbackAgentController holdbackAgent;

    public SimulatedEtcdController(SimulatedCloud cloud, SimulatedHoldbackAgentController holdbackAgent) {
        this.cloud = cloud;
        this.holdbackAgent = holdbackAgent;
    }

    @PostMapping("/{target}/v3/cluster/member/list")
    ResponseEntity<String> memberList(@PathVariable String target) {
        return WorkloadAnswers.answer(cloud.workload(target), view -> WorkloadAnswers.json(200, members(view)));
    }

    /** {@code {"peerURLs", "isLearner"}}: announced now; the CVM of the app that starts next claims it. */
    @PostMapping("/{target}/v3/cluster/member/add")
    ResponseEntity<String> memberAdd(@PathVariable String target, @RequestBody(required = false) JsonNode body) {
        return WorkloadAnswers.answer(cloud.workload(target), view -> {
            List<String> peerUrls = new ArrayList<>();
            if (body != null && body.get("peerURLs") != null) {
                body.get("peerURLs").forEach(url -> peerUrls.add(url.asText()));
            }
            if (peerUrls.isEmpty()) {
                return refusal(new WorkloadRefusal(400, "etcdserver: peer URLs are required"));
            }
            boolean learner = body.path("isLearner").asBoolean(false);
            return change(target, () -> cloud.addWorkloadMember(target, peerUrls, learner), (added, after) -> {
                Map<String, Object> answer = members(after);
                answer.put("member", member(added));
                return answer;
            });
        });
    }

    /** {@code {"ID"}}: a learner whose CVM runs becomes a voter. */
    @PostMapping("/{target}/v3/cluster/member/promote")
    ResponseEntity<String> memberPromote(@PathVariable String target, @RequestBody(required = false) JsonNode body) {
        return WorkloadAnswers.answer(cloud.workload(target), view -> withId(body, "ID", id ->
                change(target, () -> {
                    cloud.promoteWorkloadMember(target, id);
                    return null;
                }, (none, after) -> members(after))));
    }

    /** {@code {"ID"}}: the member is removed for good. */
    @PostMapping("/{target}/v3/cluster/member/remove")
    ResponseEntity<String> memberRemove(@PathVariable String target, @RequestBody(required = false) JsonNode body) {
        return WorkloadAnswers.answer(cloud.workload(target), view -> withId(body, "ID", id ->
                change(target, () -> {
                    cloud.removeWorkloadMember(target, id);
                    return null;
                }, (none, after) -> members(after))));
    }

    /** The member's view: version, leader, raft index and term, learner; 503 on a member marked unhealthy. */
    @PostMapping("/{target}/v3/maintenance/status")
    ResponseEntity<String> status(@PathVariable String target) {
        return WorkloadAnswers.answer(cloud.workload(target), view -> {
            if (view.askedUpstream() != Upstream.HEALTHY) {
                return refusal(new WorkloadRefusal(503, "etcdserver: request timed out"));
            }
            WorkloadMember self = view.self().orElseThrow();
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("header", header(view));
            body.put("version", VERSION);
            body.put("dbSize", "24576");
            view.leader().ifPresent(leader -> body.put("leader", leader.id()));
            body.put("raftIndex", Long.toString(view.index()));
            body.put("raftTerm", Long.toString(view.term()));
            body.put("raftAppliedIndex", Long.toString(view.index()));
            body.put("dbSizeInUse", "24576");
            if (self.learner()) {
                body.put("isLearner", true);
            }
            return WorkloadAnswers.json(200, body);
        });
    }

    /** {@code {"targetID"}}, asked of the leader: the target, a running voter, leads; 412 otherwise. */
    @PostMapping("/{target}/v3/maintenance/transfer-leadership")
    ResponseEntity<String> transferLeadership(@PathVariable String target, @RequestBody(required = false) JsonNode body) {
        return WorkloadAnswers.answer(cloud.workload(target), view -> withId(body, "targetID", id -> {
            if (!view.self().orElseThrow().leader()) {
                return refusal(new WorkloadRefusal(412, "etcdserver: not leader"));
            }
            return change(target, () -> cloud.transferLeadership(target, m -> id.equals(m.id()),
                    "etcdserver: bad leader transferee"), (none, after) -> Map.of("header", header(after)));
        }));
    }

    /**
     * etcd's {@code GET /health} on port {@value #CLIENT_PORT}: {@code {"health": "true"}} from a healthy member that
     * knows a leader, else 503 {@code "false"} with the reason; on the hold-back agent's port, the agent's answer
     * ({@link SimulatedHoldbackAgentController}). Any other port answers the gateway's health.
     */
    @GetMapping("/{target}/health")
    ResponseEntity<String> health(@PathVariable String target) {
        if (WorkloadAnswers.port(target) == SimulatedHoldbackAgentController.PORT) {
            return holdbackAgent.health(target);
        }
        if (WorkloadAnswers.port(target) != CLIENT_PORT) {
            return WorkloadAnswers.health(cloud.gateway(target));
        }
        return WorkloadAnswers.answer(cloud.workload(target), view -> {
            String reason = view.askedUpstream() != Upstream.HEALTHY ? "the workload is marked unhealthy"
                    : view.leader().isEmpty() ? "RAFT NO LEADER" : "";
            return WorkloadAnswers.json(reason.isEmpty() ? 200 : 503,
                    Map.of("health", Boolean.toString(reason.isEmpty()), "reason", reason));
        });
    }

    private interface Answer<T> {
        Object body(T changed, WorkloadView after);
    }

    /** Makes the change, then answers from the workload as it is after it; a refusal in etcd's error shape. */
    private <T> ResponseEntity<String> change(String target, Supplier<T> change, Answer<T> answer) {
        T changed;
        try {
            changed = change.get();
        } catch (WorkloadRefusal refusal) {
            return refusal(refusal);
        }
        return WorkloadAnswers.answer(cloud.workload(target), after -> WorkloadAnswers.json(200, answer.body(changed, after)));
    }

    private static ResponseEntity<String> withId(JsonNode body, String field,
            java.util.function.Function<String, ResponseEntity<String>> answer) {
        JsonNode value = body == null ? null : body.get(field);
        String id = value == null || value.isNull() ? "" : value.asText().trim();
        try {
            if (Long.parseUnsignedLong(id) == 0) {
                throw new NumberFormatException("0");
            }
        } catch (NumberFormatException e) {
            return refusal(new WorkloadRefusal(400, "etcdserver: bad member ID arg (" + field + ")"));
        }
        return answer.apply(Long.toUnsignedString(Long.parseUnsignedLong(id)));
    }

    private static Map<String, Object> members(WorkloadView view) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("header", header(view));
        body.put("members", view.members().stream().map(SimulatedEtcdController::member).toList());
        return body;
    }

    private static Map<String, Object> member(WorkloadMember m) {
        Map<String, Object> member = new LinkedHashMap<>();
        member.put("ID", m.id());
        if (!m.pending()) {
            member.put("name", m.name());
        }
        member.put("peerURLs", m.peerUrls());
        if (!m.pending()) {
            member.put("clientURLs", List.of("http://" + m.address() + ":" + CLIENT_PORT));
        }
        if (m.learner()) {
            member.put("isLearner", true);
        }
        return member;
    }

    private static Map<String, Object> header(WorkloadView view) {
        Map<String, Object> header = new LinkedHashMap<>();
        header.put("cluster_id", view.clusterId());
        view.self().ifPresent(self -> header.put("member_id", self.id()));
        header.put("revision", Long.toString(view.index()));
        header.put("raft_term", Long.toString(view.term()));
        return header;
    }

    /** The gateway's error body: the gRPC code of the status, etcd's message twice. */
    private static ResponseEntity<String> refusal(WorkloadRefusal refusal) {
        int code = switch (refusal.status()) {
            case 400 -> 3;
            case 404 -> 5;
            case 409 -> 6;
            case 412 -> 9;
            case 503 -> 14;
            default -> 2;
        };
        return WorkloadAnswers.json(refusal.status(),
                Map.of("error", refusal.getMessage(), "code", code, "message", refusal.getMessage()));
    }
}
