package com.statefulcvm.delegates.support;

import com.statefulcvm.connectors.phala.PhalaCloudClient;
import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.fleet.InstanceRecord;
import com.statefulcvm.fleet.InstanceRole;
import com.statefulcvm.fleet.rollout.InstanceSnapshot;
import com.statefulcvm.fleet.rollout.PlanRequest;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.RolloutOrder;
import com.statefulcvm.fleet.rollout.RolloutPlan;
import com.statefulcvm.fleet.rollout.RolloutPlanner;
import com.statefulcvm.fleet.UpdatePolicy;
import com.statefulcvm.fleet.admission.Fence;
import com.statefulcvm.fleet.admission.FenceRegistry;
import org.springframework.stereotype.Component;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Observes a set as it is now and asks the planner: the one place both the rollout's first step and the plan preview
 * go through, so that a preview shows exactly what a rollout started now would do.
 */
@Component
public class RolloutPlanning {

    private final ReplicaSetObserver observer;
    private final PhalaCloudClient phala;
    private final InstanceRoles roles;
    private final RolloutPlanner planner;
    private final FenceRegistry fences;
    private final WorkspaceQuotas quotas;

    public RolloutPlanning(ReplicaSetObserver observer, PhalaCloudClient phala, InstanceRoles roles, RolloutPlanner planner,
                           FenceRegistry fences, WorkspaceQuotas quotas) {
        this.fences = fences;
        this.observer = observer;
        this.phala = phala;
        this.roles = roles;
        this.planner = planner;
        this.quotas = quotas;
    }

    public Observed observe(ReplicaSetSpec spec, UpdatePolicy policy) {
        List<InstanceSnapshot> snapshots = new ArrayList<>();
        List<InstanceRecord> records = observer.refreshAndProbe(spec);
        // a fenced slot is neither updated nor counted available, whatever its CVM shows (the planner's rule)
        Map<Integer, String> fenced = fences.fences(spec.getName()).stream().collect(Collectors.toMap(Fence::ordinal, Fence::summary));
        for (InstanceRecord record : records) {
            if (record.cvmId() == null) {
                continue;
            }
            CvmInfo cvm = phala.getCvm(record.cvmId());
            String fence = fenced.get(record.ordinal());
            boolean available = fence == null && cvm.isRunning() && cvm.isSettled() && Boolean.TRUE.equals(record.healthy());
            // Role probes cost one call per instance; only the role-aware order reads them.
            InstanceRole role = policy.getOrder() == RolloutOrder.ROLE_AWARE && available ? roles.roleOf(spec, cvm) : InstanceRole.UNKNOWN;
            snapshots.add(new InstanceSnapshot(record.ordinal(), record.slot(), cvm.id(), cvm.status(), cvm.dockerCompose(),
                    cvm.composeHash(), available, role, fence));
        }
        return new Observed(records, snapshots);
    }

    /**
     * {@code envKeys}: the names of the variables an env rollout sets; empty without an env change. A plan whose surge
     * instances do not fit in the workspace's quotas is refused with the numbers.
     */
    public RolloutPlan plan(ReplicaSetSpec spec, UpdatePolicy policy, List<InstanceSnapshot> snapshots, String targetCompose,
                            Set<Integer> targetOrdinals, List<String> envKeys) {
        RolloutPlan plan = planner.plan(PlanRequest.of(spec, policy, snapshots, targetCompose).targeting(targetOrdinals).withEnvKeys(envKeys));
        if (plan.refused() || plan.surgeSlots().isEmpty()) {
            return plan;
        }
        return quotas.refusal("the surge of " + spec.getName() + " (" + String.join(", ", plan.surgeSlots()) + ")", spec,
                plan.surgeSlots().size()).map(plan::withRefusal).orElse(plan);
    }

    /** Observes now and plans; what the preview endpoint answers. */
    public RolloutPlan preview(ReplicaSetSpec spec, UpdatePolicy policy, String targetCompose, Set<Integer> targetOrdinals,
                               List<String> envKeys) {
        return plan(spec, policy, observe(spec, policy).snapshots(), targetCompose, targetOrdinals, envKeys);
    }

    public record Observed(List<InstanceRecord> records, List<InstanceSnapshot> snapshots) {
    }
}
