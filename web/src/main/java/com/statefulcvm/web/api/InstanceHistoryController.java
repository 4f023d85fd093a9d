package com.statefulcvm.web.api;

import com.statefulcvm.delegates.support.ReplicaSets;
import com.statefulcvm.fleet.SlotChange;
import com.statefulcvm.fleet.SlotChanges;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * {@code GET /api/replica-sets/{name}/instance-history?minutes=60}: each slot's changes of status, health and admission
 * over the last minutes (what the Instances panel draws as a strip per instance), from the registry, not from Phala.
 */
@RestController
@RequestMapping(path = "/api", produces = "application/json")
class InstanceHistoryController {

    static final int DEFAULT_MINUTES = 60;
    /** What the registry keeps (a day). */
    static final int MAX_MINUTES = 24 * 60;

    private final SlotChanges changes;
    private final ReplicaSets replicaSets;
    private final Clock clock;

    InstanceHistoryController(SlotChanges changes, ReplicaSets replicaSets, Clock clock) {
        this.changes = changes;
        this.replicaSets = replicaSets;
        this.clock = clock;
    }

    @GetMapping("/replica-sets/{name}/instance-history")
    Map<String, Object> history(@PathVariable String name, @RequestParam(required = false) String minutes) {
        if (!replicaSets.exists(name)) {
            throw new ApiProblem(HttpStatus.NOT_FOUND, "unknown replica set '" + name + "'");
        }
        int window = ProcedureController.number("minutes", minutes, DEFAULT_MINUTES, 1, MAX_MINUTES);
        Instant to = clock.instant();
        Instant from = to.minus(Duration.ofMinutes(window));
        Map<Integer, List<SlotChange>> bySlot = changes.since(name, from).stream()
                .collect(Collectors.groupingBy(SlotChange::ordinal, TreeMap::new, Collectors.toList()));
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("replicaSet", name);
        out.put("from", from);
        out.put("to", to);
        out.put("slots", bySlot);
        return out;
    }
}
