package com.statefulcvm.fleet;

import java.util.ArrayList;
import java.util.List;

/**
 * How a replica set heals an instance that its health check finds unhealthy ({@code autoHealing} in the fleet file):
 * whether the health monitor acts at all, how long it ignores failures after a CVM (re)starts, how many heals of the
 * set may run at once (a repair budget), where an operator approves, and whether an instance whose disk is lost may be
 * replaced by a new, empty CVM. Mutable so that Spring Boot can bind it; {@link #problems} decides what makes sense.
 */
public class AutoHealing {

    private boolean enabled = true;
    /** Failed probes within this many seconds of a (re)start do not count (GCP MIG's autohealing initial delay). */
    private int initialDelaySeconds = 60;
    /** At most this many heals of the set run at the same time; the others wait for a later monitor round. */
    private int maxConcurrent = 1;
    private HealApproval approval = HealApproval.BEFORE_REPLACE;
    private DataLossPolicy onDataLoss = DataLossPolicy.ESCALATE;

    /**
     * Every problem as {@code autoHealing.<field>: problem}; {@code replicas} bounds the repair budget.
     */
    public static List<String> problems(AutoHealing healing, int replicas) {
        List<String> problems = new ArrayList<>();
        if (healing == null) {
            problems.add("autoHealing: is required");
            return problems;
        }
        if (healing.initialDelaySeconds < 0) {
            problems.add("autoHealing.initialDelaySeconds: must not be negative (was " + healing.initialDelaySeconds + ")");
        }
        if (healing.maxConcurrent < 1) {
            problems.add("autoHealing.maxConcurrent: must be at least 1 (was " + healing.maxConcurrent + ")");
        } else if (replicas >= 1 && healing.maxConcurrent > replicas) {
            problems.add("autoHealing.maxConcurrent: must not exceed replicas (" + replicas + ") (was " + healing.maxConcurrent + ")");
        }
        if (healing.approval == null) {
            problems.add("autoHealing.approval: is required: one of none, before-replace, always");
        }
        if (healing.onDataLoss == null) {
            problems.add("autoHealing.onDataLoss: is required: one of replace, escalate");
        }
        return problems;
    }

    public boolean isEnabled() { return enabled; }
    public void setEnabled(boolean enabled) { this.enabled = enabled; }
    public int getInitialDelaySeconds() { return initialDelaySeconds; }
    public void setInitialDelaySeconds(int initialDelaySeconds) { this.initialDelaySeconds = initialDelaySeconds; }
    public int getMaxConcurrent() { return maxConcurrent; }
    public void setMaxConcurrent(int maxConcurrent) { this.maxConcurrent = maxConcurrent; }
    public HealApproval getApproval() { return approval; }
    public void setApproval(HealApproval approval) { this.approval = approval; }
    public DataLossPolicy getOnDataLoss() { return onDataLoss; }
    public void setOnDataLoss(DataLossPolicy onDataLoss) { this.onDataLoss = onDataLoss; }
}
