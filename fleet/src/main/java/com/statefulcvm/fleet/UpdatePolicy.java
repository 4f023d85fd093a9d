package com.statefulcvm.fleet;

/** How a rollout may disturb a replica set. */
public class UpdatePolicy {

    private int maxUnavailable = 1;
    private int minReadySeconds = 0;
    private RolloutOrder order = RolloutOrder.ORDINAL_DESCENDING;
    private int progressDeadlineSeconds = 600;

    public int getMaxUnavailable() { return maxUnavailable; }
    public void setMaxUnavailable(int maxUnavailable) { this.maxUnavailable = maxUnavailable; }
    public int getMinReadySeconds() { return minReadySeconds; }
    public void setMinReadySeconds(int minReadySeconds) { this.minReadySeconds = minReadySeconds; }
    public RolloutOrder getOrder() { return order; }
    public void setOrder(RolloutOrder order) { this.order = order; }
    public int getProgressDeadlineSeconds() { return progressDeadlineSeconds; }
    public void setProgressDeadlineSeconds(int progressDeadlineSeconds) { this.progressDeadlineSeconds = progressDeadlineSeconds; }
}
