package com.statefulcvm.fleet;

/**
 * How a rollout may disturb a replica set: GCP's update_policy, the StatefulSet's partition and order, Nomad's progress
 * deadline and Argo's abort/rollback, in one place. Mutable so that Spring Boot can bind it; {@link FleetValidator}
 * decides whether a bound value makes sense. maxUnavailable and maxSurge are text so that "25%" binds as well as 2.
 */
public class UpdatePolicy {

    private UpdateType type = UpdateType.PROACTIVE;
    private UpdateAction minimalAction = UpdateAction.NONE;
    /** RESTART, not GCP's REPLACE: a replacement loses the disk, which a stateful set must opt into. */
    private UpdateAction mostDisruptiveAllowedAction = UpdateAction.RESTART;
    private String maxUnavailable = "1";
    /** 0: a surge instance is a new, empty member of a stateful cluster, which a set must opt into. */
    private String maxSurge = "0";
    private int minReadySeconds = 0;
    private int partition = 0;
    private RolloutOrder order = RolloutOrder.ORDINAL_DESCENDING;
    private int progressDeadlineSeconds = 600;
    private FailurePolicy onFailure = FailurePolicy.PAUSE;
    /**
     * An operator approves the step that takes the set's leader down, just before it. It takes effect only where the
     * plan knows a leader (order role-aware and a role probe that reports one), so a set without a leader never waits
     * for it; on by default because a leader's step is the one that moves leadership.
     */
    private boolean approveLeader = true;

    public UpdatePolicy copy() {
        UpdatePolicy copy = new UpdatePolicy();
        copy.type = type;
        copy.minimalAction = minimalAction;
        copy.mostDisruptiveAllowedAction = mostDisruptiveAllowedAction;
        copy.maxUnavailable = maxUnavailable;
        copy.maxSurge = maxSurge;
        copy.minReadySeconds = minReadySeconds;
        copy.partition = partition;
        copy.order = order;
        copy.progressDeadlineSeconds = progressDeadlineSeconds;
        copy.onFailure = onFailure;
        copy.approveLeader = approveLeader;
        return copy;
    }

    /** maxUnavailable for this many replicas (a percentage rounds down; 0 becomes 1 when maxSurge is 0 too). */
    public int resolvedMaxUnavailable(int replicas) {
        int unavailable = FixedOrPercent.parse(maxUnavailable).resolve(replicas, false);
        return unavailable == 0 && resolvedMaxSurge(replicas) == 0 ? 1 : unavailable;
    }

    /** maxSurge for this many replicas (a percentage rounds up). */
    public int resolvedMaxSurge(int replicas) {
        return FixedOrPercent.parse(maxSurge).resolve(replicas, true);
    }

    public UpdateType getType() { return type; }
    public void setType(UpdateType type) { this.type = type; }
    public UpdateAction getMinimalAction() { return minimalAction; }
    public void setMinimalAction(UpdateAction minimalAction) { this.minimalAction = minimalAction; }
    public UpdateAction getMostDisruptiveAllowedAction() { return mostDisruptiveAllowedAction; }
    public void setMostDisruptiveAllowedAction(UpdateAction mostDisruptiveAllowedAction) { this.mostDisruptiveAllowedAction = mostDisruptiveAllowedAction; }
    public String getMaxUnavailable() { return maxUnavailable; }
    public void setMaxUnavailable(String maxUnavailable) { this.maxUnavailable = maxUnavailable; }
    public String getMaxSurge() { return maxSurge; }
    public void setMaxSurge(String maxSurge) { this.maxSurge = maxSurge; }
    public int getMinReadySeconds() { return minReadySeconds; }
    public void setMinReadySeconds(int minReadySeconds) { this.minReadySeconds = minReadySeconds; }
    public int getPartition() { return partition; }
    public void setPartition(int partition) { this.partition = partition; }
    public RolloutOrder getOrder() { return order; }
    public void setOrder(RolloutOrder order) { this.order = order; }
    public int getProgressDeadlineSeconds() { return progressDeadlineSeconds; }
    public void setProgressDeadlineSeconds(int progressDeadlineSeconds) { this.progressDeadlineSeconds = progressDeadlineSeconds; }
    public FailurePolicy getOnFailure() { return onFailure; }
    public void setOnFailure(FailurePolicy onFailure) { this.onFailure = onFailure; }
    public boolean isApproveLeader() { return approveLeader; }
    public void setApproveLeader(boolean approveLeader) { this.approveLeader = approveLeader; }
}
