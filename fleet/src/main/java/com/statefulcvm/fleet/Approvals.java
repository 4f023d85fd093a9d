package com.statefulcvm.fleet;

/** Where a rollout waits for a human in Tasklist, and who that human may be. */
public class Approvals {

    private boolean beforeRollout = true;
    private boolean betweenInstances = false;
    /** Null: the fleet's default ({@code orchestrator.fleet.four-eyes}, true unless the fleet file says otherwise). */
    private Boolean fourEyes;

    public boolean isBeforeRollout() { return beforeRollout; }
    public void setBeforeRollout(boolean beforeRollout) { this.beforeRollout = beforeRollout; }
    public boolean isBetweenInstances() { return betweenInstances; }
    public void setBetweenInstances(boolean betweenInstances) { this.betweenInstances = betweenInstances; }
    public Boolean getFourEyes() { return fourEyes; }
    public void setFourEyes(Boolean fourEyes) { this.fourEyes = fourEyes; }

    /**
     * Four-eyes: the user who requested a procedure of the set may not decide its approvals; someone else must. On
     * unless the set (or the fleet) turns it off.
     */
    public boolean requiresFourEyes() { return fourEyes == null || fourEyes; }
}
