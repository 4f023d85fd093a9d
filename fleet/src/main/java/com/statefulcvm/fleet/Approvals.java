package com.statefulcvm.fleet;

/** Where a rollout waits for a human in Tasklist. */
public class Approvals {

    private boolean beforeRollout = true;
    private boolean betweenInstances = false;

    public boolean isBeforeRollout() { return beforeRollout; }
    public void setBeforeRollout(boolean beforeRollout) { this.beforeRollout = beforeRollout; }
    public boolean isBetweenInstances() { return betweenInstances; }
    public void setBetweenInstances(boolean betweenInstances) { this.betweenInstances = betweenInstances; }
}
