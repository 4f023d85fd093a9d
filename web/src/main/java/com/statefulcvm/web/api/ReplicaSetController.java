package com.statefulcvm.web.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.statefulcvm.connectors.phala.PhalaApiException;
import com.statefulcvm.delegates.support.ReplicaSetObserver;
import com.statefulcvm.delegates.support.ReplicaSets;
import com.statefulcvm.fleet.InstanceRecord;
import com.statefulcvm.fleet.InstanceRegistry;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.web.config.FleetConfiguration.ValidatedFleet;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import java.net.URI;
import java.util.List;
import java.util.Map;

@RestController
@RequestMapping(path = "/api/replica-sets", produces = "application/json")
class ReplicaSetController {

    private final ValidatedFleet fleet;
    private final ReplicaSets replicaSets;
    private final InstanceRegistry registry;
    private final ReplicaSetObserver observer;
    private final RolloutStarter rollouts;

    ReplicaSetController(ValidatedFleet fleet, ReplicaSets replicaSets, InstanceRegistry registry,
                         ReplicaSetObserver observer, RolloutStarter rollouts) {
        this.fleet = fleet;
        this.replicaSets = replicaSets;
        this.registry = registry;
        this.observer = observer;
        this.rollouts = rollouts;
    }

    /** From the registry only: listing the fleet costs no API call. */
    @GetMapping
    List<ReplicaSetView> list() {
        return fleet.fleet().getReplicaSets().stream()
                .map(spec -> view(spec, registry.instances(spec.getName()), false, null))
                .toList();
    }

    /** Refreshes the set from Phala first; if Phala cannot be reached, shows the last record and says why. */
    @GetMapping("/{name}")
    ReplicaSetView get(@PathVariable String name) {
        ReplicaSetSpec spec = spec(name);
        try {
            return view(spec, observer.refresh(spec), true, null);
        } catch (PhalaApiException | IllegalStateException e) {
            return view(spec, registry.instances(name), true, e.getMessage());
        }
    }

    @PostMapping(path = "/{name}/rollouts", consumes = "application/json")
    ResponseEntity<Map<String, Object>> startRollout(@PathVariable String name, @RequestBody JsonNode body) {
        ReplicaSetSpec spec = spec(name);
        String compose = RolloutRequest.dockerComposeOf(body);
        String processInstanceId = rollouts.start(spec, compose);
        return ResponseEntity.created(URI.create("/engine-rest/process-instance/" + processInstanceId))
                .body(Map.of("processInstanceId", processInstanceId, "replicaSet", name));
    }

    private ReplicaSetSpec spec(String name) {
        if (!replicaSets.exists(name)) {
            throw new ApiProblem(HttpStatus.NOT_FOUND, "unknown replica set '" + name + "'");
        }
        return replicaSets.spec(name);
    }

    private ReplicaSetView view(ReplicaSetSpec spec, List<InstanceRecord> records, boolean withInstances, String error) {
        String appId;
        try {
            appId = replicaSets.appId(spec);
        } catch (IllegalStateException notYetCreated) {
            appId = null;
        }
        int ready = (int) records.stream().filter(r -> r.ordinal() < spec.getReplicas()).filter(InstanceRecord::ready).count();
        return new ReplicaSetView(spec.getName(), appId, spec.getWorkloadType(), spec.getReplicas(), ready,
                withInstances ? records.stream().map(ReplicaSetView.InstanceView::of).toList() : null, error);
    }
}
