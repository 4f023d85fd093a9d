package com.statefulcvm.delegates.support;

import com.statefulcvm.fleet.FleetDefinition;
import com.statefulcvm.fleet.InstanceRecord;
import com.statefulcvm.fleet.InstanceRegistry;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.Slots;
import org.springframework.stereotype.Component;

import java.util.NoSuchElementException;
import java.util.OptionalInt;

/** Resolves names used in process variables (set name, slot name) to the fleet definition and the Phala ids. */
@Component
public class ReplicaSets {

    private final FleetDefinition fleet;
    private final InstanceRegistry registry;

    public ReplicaSets(FleetDefinition fleet, InstanceRegistry registry) {
        this.fleet = fleet;
        this.registry = registry;
    }

    public ReplicaSetSpec spec(String name) {
        return fleet.find(name).orElseThrow(() -> new NoSuchElementException("unknown replica set '" + name + "'"));
    }

    public boolean exists(String name) {
        return fleet.find(name).isPresent();
    }

    /** The set's Phala app: from the fleet file, or the one this deployment created for it. */
    public String appId(ReplicaSetSpec spec) {
        if (spec.getAppId() != null && !spec.getAppId().isBlank()) {
            return spec.getAppId();
        }
        return registry.createdAppId(spec.getName()).orElseThrow(() -> new IllegalStateException(
                "replica set '" + spec.getName() + "' has no appId and none was created for it yet"));
    }

    public int ordinalOf(ReplicaSetSpec spec, String slot) {
        OptionalInt ordinal = Slots.ordinalOf(spec.getName(), slot);
        if (ordinal.isEmpty()) {
            throw new IllegalArgumentException("'" + slot + "' is not a slot of replica set '" + spec.getName() + "'");
        }
        return ordinal.getAsInt();
    }

    /** The id to address a slot's CVM by; the slot name works too, since the API accepts names as CVM ids. */
    public String cvmIdOf(ReplicaSetSpec spec, String slot) {
        return registry.instance(spec.getName(), ordinalOf(spec, slot))
                .map(InstanceRecord::cvmId)
                .filter(id -> id != null && !id.isBlank())
                .orElse(slot);
    }
}
