package com.statefulcvm.fleet.rollout;

import com.statefulcvm.fleet.QuorumRule;
import com.statefulcvm.fleet.UpdatePolicy;
import com.statefulcvm.fleet.ReplicaSetSpec;
import java.util.List;
import java.util.Set;

/**
 * Everything the planner reads. {@code policy} is the set's policy with any per-rollout override applied;
 * {@code targetOrdinals} empty means "every slot the policy puts in scope", otherwise exactly those slots (an explicit
 * target ignores partition and OPPORTUNISTIC). {@code approvalBetweenWaves} only shapes the blockers.
 * {@code envKeys}: the names of the variables an env rollout sets (empty: no env change); never their values, which
 * the planner cannot compare anyway (a CVM's env is only readable inside it). {@code quorum}: the set's workload
 * type's rule, for its disruption budget (a raft store's quorum caps maxUnavailable); null: one member serves.
 */
public record PlanRequest(String replicaSet, int replicas, UpdatePolicy policy, List<InstanceSnapshot> instances,
                          String targetCompose, Set<Integer> targetOrdinals, boolean approvalBeforeRollout,
                          boolean approvalBetweenWaves, List<String> envKeys, QuorumRule quorum) {

    public PlanRequest {
        instances = List.copyOf(instances);
        targetOrdinals = Set.copyOf(targetOrdinals);
        envKeys = envKeys == null ? List.of() : List.copyOf(envKeys);
    }

    public PlanRequest(String replicaSet, int replicas, UpdatePolicy policy, List<InstanceSnapshot> instances,
                       String targetCompose, Set<Integer> targetOrdinals, boolean approvalBeforeRollout,
                       boolean approvalBetweenWaves) {
        this(replicaSet, replicas, policy, instances, targetCompose, targetOrdinals, approvalBeforeRollout,
                approvalBetweenWaves, List.of(), null);
    }

    public PlanRequest(String replicaSet, int replicas, UpdatePolicy policy, List<InstanceSnapshot> instances,
                       String targetCompose, Set<Integer> targetOrdinals, boolean approvalBeforeRollout,
                       boolean approvalBetweenWaves, List<String> envKeys) {
        this(replicaSet, replicas, policy, instances, targetCompose, targetOrdinals, approvalBeforeRollout,
                approvalBetweenWaves, envKeys, null);
    }

    public boolean envChange() {
        return !envKeys.isEmpty();
    }

    /** The same request with an env change of these variable names. */
    public PlanRequest withEnvKeys(List<String> keys) {
        return new PlanRequest(replicaSet, replicas, policy, instances, targetCompose, targetOrdinals, approvalBeforeRollout,
                approvalBetweenWaves, keys, quorum);
    }

    public static PlanRequest of(ReplicaSetSpec set, UpdatePolicy policy, List<InstanceSnapshot> instances, String targetCompose) {
        return new PlanRequest(set.getName(), set.getReplicas(), policy, instances, targetCompose, Set.of(),
                set.getApprovals().isBeforeRollout(), set.getApprovals().isBetweenInstances(), List.of(), set.workload().quorumRule());
    }

    public PlanRequest targeting(Set<Integer> ordinals) {
        return new PlanRequest(replicaSet, replicas, policy, instances, targetCompose, ordinals, approvalBeforeRollout,
                approvalBetweenWaves, envKeys, quorum);
    }
}
