package com.statefulcvm.delegates.support;

import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.fleet.FleetDefinition;
import com.statefulcvm.fleet.InstanceRecord;
import com.statefulcvm.fleet.InstanceRegistry;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.Slots;
import com.statefulcvm.fleet.scaling.DesiredReplicas;
import com.statefulcvm.fleet.scaling.ScaleRegistry;
import org.springframework.stereotype.Component;

import java.util.List;
import java.util.NoSuchElementException;
import java.util.OptionalInt;
import java.util.function.Predicate;

/**
 * Resolves names used in process variables (set name, slot name) to the fleet definition and the Phala ids. Every
 * spec it hands out carries the set's <b>desired</b> replica count ({@link DesiredReplicas}: a scale's count while the
 * fleet file still says what it said then), so the planner, the health monitor, the status and every procedure read
 * one and the same count.
 */
@Component
public class ReplicaSets {

    private final FleetDefinition fleet;
    private final InstanceRegistry registry;
    private final ScaleRegistry scales;

    public ReplicaSets(FleetDefinition fleet, InstanceRegistry registry, ScaleRegistry scales) {
        this.fleet = fleet;
        this.registry = registry;
        this.scales = scales;
    }

    /** The set with its desired replica count. */
    public ReplicaSetSpec spec(String name) {
        return effective(fileSpec(name));
    }

    /** The set exactly as the fleet file declares it (its {@code replicas} is the file's). */
    public ReplicaSetSpec fileSpec(String name) {
        return fleet.find(name).orElseThrow(() -> new NoSuchElementException("unknown replica set '" + name + "'"));
    }

    /** Every set of the fleet, each with its desired replica count. */
    public List<ReplicaSetSpec> all() {
        return fleet.getReplicaSets().stream().map(this::effective).toList();
    }

    private ReplicaSetSpec effective(ReplicaSetSpec file) {
        int desired = DesiredReplicas.of(file.getReplicas(), scales.scaled(file.getName()));
        return desired == file.getReplicas() ? file : file.withReplicas(desired);
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

    /**
     * Which CVMs of the set's app an interrupted create left without their slot's name: in an app this deployment
     * created for the set every CVM is one of its slots, so any other name is such a CVM. In an app the fleet file
     * names none is, since that app may hold CVMs that are none of ours.
     */
    public Predicate<CvmInfo> orphanOf(ReplicaSetSpec spec) {
        boolean ownApp = (spec.getAppId() == null || spec.getAppId().isBlank())
                && registry.createdAppId(spec.getName()).isPresent();
        return cvm -> ownApp && SetCvms.ordinalOf(spec, cvm).isEmpty() && !"deleting".equals(cvm.status());
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
