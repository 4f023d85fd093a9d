package com.statefulcvm.delegates.scale;

import com.statefulcvm.delegates.support.SetCvms;
import com.statefulcvm.connectors.phala.PhalaCloudClient;
import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.delegates.support.ReplicaSets;
import com.statefulcvm.delegates.support.WorkspaceQuotas;
import com.statefulcvm.fleet.FleetValidator;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.Slots;
import com.statefulcvm.fleet.scaling.RetainedSlot;
import com.statefulcvm.fleet.scaling.ScalePlan;
import com.statefulcvm.fleet.scaling.ScaleRegistry;
import org.camunda.bpm.engine.RepositoryService;
import org.springframework.stereotype.Component;

import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The checks and the plan of a scale, in one place for the procedure's first step and for whoever starts it (the REST
 * API answers a refusal or a no-op before starting anything): the request's count, the workload type's procedures,
 * and the plan from the set's desired count and the CVMs Phala lists.
 */
@Component
public class ScalePlanning {

    /** The per-type procedures a scale calls through run-hook.bpmn; a type without them cannot be scaled. */
    public static final List<String> HOOKS = List.of("add", "join", "leave");

    private final ReplicaSets replicaSets;
    private final PhalaCloudClient phala;
    private final ScaleRegistry scales;
    private final WorkspaceQuotas quotas;

    public ScalePlanning(ReplicaSets replicaSets, PhalaCloudClient phala, ScaleRegistry scales, WorkspaceQuotas quotas) {
        this.replicaSets = replicaSets;
        this.phala = phala;
        this.scales = scales;
        this.quotas = quotas;
    }

    /** The most replicas the set may be scaled to. */
    public int maxReplicas(String set) {
        ReplicaSetSpec file = replicaSets.fileSpec(set);
        return file.getScaling().maxReplicasFor(file.getReplicas(), FleetValidator.MAX_REPLICAS);
    }

    /**
     * Why the request cannot be planned ({@code replicas: ...}, the workload type's missing procedures, or new CVMs
     * beyond the workspace's quotas), if so.
     */
    public Optional<String> refusal(String set, Object requested, RepositoryService repository) {
        return ScalePlan.refusal(requested, maxReplicas(set))
                .or(() -> missingProcedures(replicaSets.spec(set).getWorkloadType(), repository))
                .or(() -> quotaRefusal(set, ((Number) requested).intValue()));
    }

    /** A scale-up creates a CVM for each added slot that has none (a retained slot's CVM is started again). */
    private Optional<String> quotaRefusal(String set, int requested) {
        ScalePlan plan = plan(set, requested);
        if (plan.direction() != ScalePlan.Direction.UP) {
            return Optional.empty();
        }
        Set<Integer> retained = scales.retained(set).stream().map(RetainedSlot::ordinal).collect(Collectors.toSet());
        int newCvms = (int) plan.toAdd().stream().filter(ordinal -> !retained.contains(ordinal)).count();
        return quotas.refusal("replicas: the scale-up of " + set + " to " + requested, replicaSets.spec(set), newCvms);
    }

    public ScalePlan plan(String set, int requested) {
        ReplicaSetSpec spec = replicaSets.spec(set);
        Set<Integer> retained = scales.retained(set).stream().map(RetainedSlot::ordinal).collect(Collectors.toSet());
        Set<Integer> withCvm = new HashSet<>();
        for (CvmInfo cvm : SetCvms.asSlots(spec, phala.listAppCvms(replicaSets.appId(spec)))) {
            Slots.ordinalOf(set, cvm.name()).ifPresent(o -> {
                if (!retained.contains(o) && !"deleting".equals(cvm.status())) {
                    withCvm.add(o);
                }
            });
        }
        return ScalePlan.of(spec.getReplicas(), requested, spec.minReplicas(), withCvm);
    }

    static Optional<String> missingProcedures(String workloadType, RepositoryService repository) {
        List<String> missing = HOOKS.stream().map(h -> h + "-" + workloadType)
                .filter(key -> repository.createProcessDefinitionQuery().processDefinitionKey(key).count() == 0).toList();
        return missing.isEmpty() ? Optional.empty() : Optional.of("workload type '" + workloadType + "' cannot be scaled: "
                + "no procedure " + String.join(", ", missing) + " is deployed (docs/scaling.md, adding a workload type)");
    }
}
