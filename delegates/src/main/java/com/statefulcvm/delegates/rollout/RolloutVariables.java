package com.statefulcvm.delegates.rollout;

/** Names of the rollout process's variables, shared by the delegates, the REST API and the tests. */
public final class RolloutVariables {

    public static final String PROCESS_KEY = "rollout";
    public static final String REPLICA_SET = "replicaSet";
    public static final String TARGET_COMPOSE = "targetCompose";
    public static final String SLOTS = "slots";
    public static final String SLOT = "slot";
    public static final String PLAN_SUMMARY = "planSummary";
    public static final String COMPOSE_DIFF = "composeDiff";
    public static final String APPROVAL_BEFORE_ROLLOUT = "approvalBeforeRollout";
    public static final String APPROVAL_BETWEEN_INSTANCES = "approvalBetweenInstances";
    public static final String CVM_POLL_INTERVAL = "cvmPollInterval";
    public static final String HEALTH_PROBE_INTERVAL = "healthProbeInterval";
    public static final String PROGRESS_DEADLINE = "progressDeadline";
    public static final String STAGE = "stage";
    public static final String CVM_RUNNING = "cvmRunning";
    public static final String HEALTHY_STREAK = "healthyStreak";
    public static final String HEALTHY_SINCE = "healthySince";
    public static final String HEALTH_GATE_PASSED = "healthGatePassed";
    public static final String APPROVED = "approved";
    public static final String DECISION = "decision";
    /** slot name → instance_id at plan time: the attestation step's slot binding. */
    public static final String BOUND_INSTANCE_IDS = "boundInstanceIds";
    /** The set's current revision(s); the attestation step adds the revision being rolled out. */
    public static final String ALLOWED_COMPOSE_HASHES = "allowedComposeHashes";

    private RolloutVariables() {
    }
}
