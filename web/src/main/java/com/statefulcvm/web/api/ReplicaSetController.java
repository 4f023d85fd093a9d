package com.statefulcvm.web.api;

import com.statefulcvm.web.api.rollout.PolicyOverrides;
import com.statefulcvm.web.api.rollout.EnvSealer;
import com.statefulcvm.web.api.rollout.RolloutStarts;
import com.statefulcvm.web.api.rollout.RolloutRequest;
import com.fasterxml.jackson.databind.JsonNode;
import com.statefulcvm.connectors.phala.EnvEncryption;
import com.statefulcvm.connectors.phala.PhalaApiException;
import com.statefulcvm.delegates.support.ReplicaSets;
import com.statefulcvm.delegates.support.RolloutPlanning;
import com.statefulcvm.fleet.InstanceRegistry;
import com.statefulcvm.fleet.rollout.PlannedStep;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.Revision;
import com.statefulcvm.fleet.RevisionHistory;
import com.statefulcvm.fleet.rollout.RolloutPlan;
import com.statefulcvm.fleet.UpdatePolicy;
import com.statefulcvm.web.config.FleetConfiguration.ValidatedFleet;
import com.statefulcvm.web.status.FleetReads;
import com.statefulcvm.web.status.ObservedConditions;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

@RestController
@RequestMapping(path = "/api/replica-sets", produces = "application/json")
public class ReplicaSetController {

    private final ReplicaSets replicaSets;
    private final InstanceRegistry registry;
    private final ReplicaSetStatus status;
    private final ObservedConditions conditions;
    private final FleetReads reads;

    ReplicaSetController(ReplicaSets replicaSets, InstanceRegistry registry, ReplicaSetStatus status,
                         ObservedConditions conditions, FleetReads reads) {
        this.replicaSets = replicaSets;
        this.registry = registry;
        this.status = status;
        this.conditions = conditions;
        this.reads = reads;
    }

    /** From the registry and our own tables only: listing the fleet costs no API call. */
    @GetMapping
    List<ReplicaSetView> list() {
        return replicaSets.all().stream()
                .map(spec -> status.view(spec, registry.instances(spec.getName()), false, null))
                .toList();
    }

    /**
     * The set as Phala showed it at most {@code orchestrator.fleet-reads.max-age} ago ({@link FleetReads}: one read per
     * set and node in that time, however many viewers ask); if Phala cannot be reached, the last record and why.
     */
    @GetMapping("/{name}")
    ReplicaSetView get(@PathVariable String name) {
        ReplicaSetSpec spec = spec(name);
        FleetReads.Read read;
        try {
            read = reads.read(spec);
        } catch (PhalaApiException | IllegalStateException e) {
            return status.view(spec, registry.instances(name), true, e.getMessage());
        }
        if (read.fresh()) {
            conditions.track(spec, read.records());
        }
        return status.view(spec, read.records(), true, null);
    }

    /** 201 for a started procedure, naming its process instance and the set. */
    public static ResponseEntity<Map<String, Object>> created(String processInstanceId, String name) {
        return ResponseEntity.created(URI.create("/engine-rest/process-instance/" + processInstanceId))
                .body(Map.of("processInstanceId", processInstanceId, "replicaSet", name));
    }

    private ReplicaSetSpec spec(String name) {
        if (!replicaSets.exists(name)) {
            throw new ApiProblem(HttpStatus.NOT_FOUND, "unknown replica set '" + name + "'");
        }
        return replicaSets.spec(name);
    }
}
