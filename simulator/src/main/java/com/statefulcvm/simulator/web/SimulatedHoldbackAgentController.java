package com.statefulcvm.simulator.web;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

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
import com.statefulcvm.simulator.cloud.WorkloadRefusal;

/**
 * The compose's hold-back agent ({@code config/compose/holdback-agent.py --store galera}) on port {@value #PORT} of
 * every CVM, answering as it does for Galera: {@code GET /sequence} the seqno the member holds back with (the last
 * transaction it committed before it stopped; the member that stopped last holds the most recent) while its workload
 * waits, 503 once released; {@code POST /release} (optional body {@code {"role": "seed"|"follower", ...}}) starts it;
 * {@code GET /health} 200 with {@code wsrep_local_state} 4 (Synced) only while released and healthy. A member with
 * data waits for a release when it boots while no released member runs (a lights-out); otherwise it joins the running
 * ones at once, as a Galera node joins its primary component. {@code POST /drain} desyncs the node (its health 503
 * Donor/Desynced, receive queue 0 at once: the simulator has no data) until {@code POST /resume} or its next stop.
 * Other ports answer as the generic gateway does.
 */
@RestController
@RequestMapping(ApiPaths.GATEWAY)
@ConditionalOnProperty(prefix = "simulator", name = "enabled", havingValue = "true")
public class SimulatedHoldbackAgentController {

    static final int PORT = 9000;

    private final SimulatedCloud cloud;

    public SimulatedHoldbackAgentController(SimulatedCloud cloud) {
        this.cloud = cloud;
    }

    @GetMapping("/{target}/sequence")
    ResponseEntity<String> sequence(@PathVariable String target) {
        return onAgent(target, () -> cloud.heldBackSeqno(target)
                .map(seqno -> {
                    Map<String, Object> body = new LinkedHashMap<>();
                    body.put("sequence", seqno);
                    body.put("safeToBootstrap", false);
                    body.put("recovered", false);
                    return WorkloadAnswers.json(200, body);
                })
                .orElseGet(() -> WorkloadAnswers.json(503, Map.of("error", "released: the workload answers for itself"))));
    }

    @PostMapping("/{target}/release")
    ResponseEntity<String> release(@PathVariable String target, @RequestBody(required = false) JsonNode order) {
        return onAgent(target, () -> {
            if (order != null && !order.isNull() && !(order.isObject() && order.path("role").isTextual()
                    && ("seed".equals(order.path("role").asText()) || "follower".equals(order.path("role").asText())))) {
                return WorkloadAnswers.json(400, Map.of("error", "the release's role must be seed or follower"));
            }
            cloud.releaseHeldBack(target);
            return WorkloadAnswers.json(202, Map.of("released", true));
        });
    }

    /** Desyncs the node: it refuses client queries and its health answers 503 Donor/Desynced until resumed or stopped. */
    @PostMapping("/{target}/drain")
    ResponseEntity<String> drain(@PathVariable String target) {
        return onAgent(target, () -> {
            boolean running = cloud.desyncWorkload(target, true);
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("drained", true);
            body.put("recvQueue", 0);
            body.put("state", running ? "Donor/Desynced" : "held back: not released");
            body.put("desync", "ON");
            body.put("rejectQueries", "ALL");
            return WorkloadAnswers.json(200, body);
        });
    }

    @PostMapping("/{target}/resume")
    ResponseEntity<String> resume(@PathVariable String target) {
        return onAgent(target, () -> {
            boolean running = cloud.desyncWorkload(target, false);
            return WorkloadAnswers.json(200, Map.of("resumed", true, "state", running ? "Synced" : "held back: not released",
                    "desync", "OFF", "rejectQueries", "NONE"));
        });
    }

    /** {@code GET /health} on port {@value #PORT}; mapped by {@link SimulatedEtcdController}, which owns that path. */
    ResponseEntity<String> health(String target) {
        return onAgent(target, () -> {
            Optional<Long> held = cloud.heldBackSeqno(target);
            if (held.isPresent()) {
                return WorkloadAnswers.json(503, Map.of("error", "held back: not released yet"));
            }
            return cloud.gateway(target) == Upstream.HEALTHY && !cloud.workloadDesynced(target)
                    ? WorkloadAnswers.json(200, Map.of("wsrep_local_state", "4", "state", "Synced"))
                    : WorkloadAnswers.json(503, Map.of("wsrep_local_state", "2", "state", "Donor/Desynced"));
        });
    }

    private ResponseEntity<String> onAgent(String target, java.util.function.Supplier<ResponseEntity<String>> answer) {
        if (WorkloadAnswers.port(target) != PORT) {
            return WorkloadAnswers.health(cloud.gateway(target));
        }
        if (cloud.gateway(target) == Upstream.NONE) {
            return WorkloadAnswers.text(502, "no upstream");
        }
        try {
            return answer.get();
        } catch (WorkloadRefusal refusal) {
            return WorkloadAnswers.text(refusal.status(), refusal.getMessage());
        }
    }
}
