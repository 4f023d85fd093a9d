package com.statefulcvm.fleet;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Every replica set this deployment manages. */
public class FleetDefinition {

    private List<ReplicaSetSpec> replicaSets = new ArrayList<>();
    /** The default of every set's {@code approvals.four-eyes}: on, unless the fleet file turns it off. */
    private boolean fourEyes = true;

    public List<ReplicaSetSpec> getReplicaSets() { return replicaSets; }
    public void setReplicaSets(List<ReplicaSetSpec> replicaSets) { this.replicaSets = replicaSets; }

    public boolean isFourEyes() { return fourEyes; }
    public void setFourEyes(boolean fourEyes) { this.fourEyes = fourEyes; }

    public Optional<ReplicaSetSpec> find(String name) {
        return replicaSets.stream().filter(s -> s.getName().equals(name)).findFirst();
    }
}
