package com.statefulcvm.fleet;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The workload types a replica set may name, each by its descriptor: the built-in ones and those of the
 * configuration ({@code orchestrator.workload-types}), a configured one replacing a built-in of its name.
 */
public final class WorkloadCatalog {

    /** etcd, Consul, Patroni, Galera and generic, as the shipped diagrams and the hold-back agent expect them. */
    public static final WorkloadCatalog BUILT_IN = new WorkloadCatalog(List.of(
            WorkloadType.of("etcd", QuorumRule.MAJORITY, 3, 2379, true, EnumSet.allOf(WorkloadHook.class), true,
                    "etcd leadership is moved to another voting member first (the drain picks one in sync)."),
            WorkloadType.of("consul", QuorumRule.MAJORITY, 3, 8500, false, EnumSet.allOf(WorkloadHook.class), true,
                    "Consul leadership is transferred to another voter first."),
            WorkloadType.of("patroni", QuorumRule.ONE, 2, 8008, true, EnumSet.allOf(WorkloadHook.class),
                    "drain-patroni switches over to the healthy replica with the least lag.").withRoleProbe(8008, "/leader"),
            // multi-primary: no role probe, no leader; held back by the agent (--store galera) so that a lights-out seeds
            // the node with the highest seqno; a new node joins by SST on its own (no leave/add); its drain desyncs it and
            // refuses client queries through the agent, its rejoin undoes that after the health gate (the agent's Synced)
            WorkloadType.of("galera", QuorumRule.MAJORITY, 3, 0, true, EnumSet.of(WorkloadHook.DRAIN, WorkloadHook.REJOIN), false,
                    "Galera is multi-primary: there is no leader to hand over."),
            // a generic drain only calls the set's pre-stop endpoint (Hooks.drainDoesWork); its rejoin ends at once
            WorkloadType.of("generic", QuorumRule.ONE, 1, 0, false, Set.of(), null)));

    private final Map<String, WorkloadType> types;

    private WorkloadCatalog(List<WorkloadType> types) {
        Map<String, WorkloadType> byName = new TreeMap<>();
        types.forEach(t -> byName.put(t.getName(), t));
        this.types = Collections.unmodifiableMap(byName);
    }

    /**
     * The built-in types and the configured ones (by name; the map's keys name them).
     *
     * @throws IllegalArgumentException listing every problem of the configured descriptors
     */
    public static WorkloadCatalog withConfigured(Map<String, WorkloadType> configured) {
        List<WorkloadType> all = new ArrayList<>(BUILT_IN.types.values());
        List<String> problems = new ArrayList<>();
        (configured == null ? Map.<String, WorkloadType>of() : configured).forEach((name, type) -> {
            WorkloadType named = type == null ? new WorkloadType() : type;
            named.setName(name);
            problems.addAll(named.problems());
            all.removeIf(t -> t.getName().equals(name));
            all.add(named);
        });
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(String.join("; ", problems));
        }
        return new WorkloadCatalog(all);
    }

    public Optional<WorkloadType> find(String name) {
        return Optional.ofNullable(name == null ? null : types.get(name));
    }

    /** @throws IllegalArgumentException naming the type and the known ones */
    public WorkloadType of(String name) {
        return find(name).orElseThrow(() -> new IllegalArgumentException("workload type '" + name
                + "' has no descriptor (orchestrator.workload-types." + name + "); known: " + String.join(", ", names())));
    }

    public Set<String> names() {
        return types.keySet();
    }
}
