package com.statefulcvm.fleet;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Every replica set this deployment manages. */
public class FleetDefinition {

    private List<ReplicaSetSpec> replicaSets = new ArrayList<>();

    public List<ReplicaSetSpec> getReplicaSets() { return replicaSets; }
    public void setReplicaSets(List<ReplicaSetSpec> replicaSets) { this.replicaSets = replicaSets; }

    public Optional<ReplicaSetSpec> find(String name) {
        return replicaSets.stream().filter(s -> s.getName().equals(name)).findFirst();
    }
}
