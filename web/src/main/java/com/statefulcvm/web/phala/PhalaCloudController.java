package com.statefulcvm.web.phala;

import com.statefulcvm.web.engine.PhalaOutagePause;
import com.statefulcvm.delegates.support.PhalaCircuit;
import org.camunda.bpm.engine.ManagementService;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code GET /api/phala-cloud}: whether this node reaches Phala Cloud, and while it does not, the condition the fleet
 * page shows ({@code PhalaCloudUnreachable}: since when, the last failure, the next try) and how many procedure steps
 * wait for it across the cluster.
 */
@RestController
class PhalaCloudController {

    private final PhalaCircuit circuit;
    private final ManagementService management;

    PhalaCloudController(PhalaCircuit circuit, ManagementService management) {
        this.circuit = circuit;
        this.management = management;
    }

    @GetMapping("/api/phala-cloud")
    Map<String, Object> status() {
        Map<String, Object> view = new LinkedHashMap<>();
        var open = circuit.open();
        view.put("reachable", open.isEmpty());
        view.put("condition", open.map(PhalaCircuit.Open::describe).orElse(null));
        view.put("since", open.map(o -> o.since().toString()).orElse(null));
        view.put("nextTryAt", open.map(o -> o.nextProbeAt().toString()).orElse(null));
        view.put("pausedSteps", management.createJobQuery().withException().unlimitedList().stream()
                .filter(j -> j.getExceptionMessage() != null && j.getExceptionMessage().startsWith(PhalaOutagePause.WAITING)).count());
        return view;
    }
}
