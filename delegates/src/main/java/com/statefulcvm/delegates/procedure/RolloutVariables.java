package com.statefulcvm.delegates.procedure;

/** Names of the rollout process's variables, shared by the delegates, the REST API and the tests. */
public final class RolloutVariables extends ProcedureVariables {

    public static final String PROCESS_KEY = "rollout";
    public static final String SLOTS = "slots";
    public static final String COMPOSE_DIFF = "composeDiff";
    public static final String APPROVAL_BEFORE_ROLLOUT = "approvalBeforeRollout";
    public static final String APPROVAL_BETWEEN_INSTANCES = "approvalBetweenInstances";
    public static final String HEALTH_PROBE_INTERVAL = "healthProbeInterval";
    public static final String PROGRESS_DEADLINE = "progressDeadline";
    public static final String CVM_RUNNING = "cvmRunning";
    public static final String HEALTHY_STREAK = "healthyStreak";
    public static final String HEALTHY_SINCE = "healthySince";
    public static final String HEALTH_GATE_PASSED = "healthGatePassed";
    public static final String APPROVED = "approved";
    public static final String DECISION = "decision";
    /** Local to a completed approval or decision task: the authenticated user who completed it ("unknown" without one). */
    public static final String APPROVED_BY = "approvedBy";
    /** Local to a completed approval or decision task: when it was completed (ISO-8601 instant). */
    public static final String APPROVED_AT = "approvedAt";
    /** Of a rollout: JSON list of the operators' pause, resume and abort requests, {action, by, at, reason}. */
    public static final String CONTROLS = "controls";
    /** The approver's comment, as the approval and decision forms submit it (optional). */
    public static final String COMMENT = "comment";
    /** Local to a completed approval or decision task: the comment given with that decision (absent without one). */
    public static final String DECISION_COMMENT = "decisionComment";
    /** Of each process instance with approval or decision tasks: JSON list of {task, taskDefinitionKey, decision, by, at, comment}. */
    public static final String DECISIONS = "decisions";
    /** slot name → instance_id at plan time: the attestation step's slot binding. */
    public static final String BOUND_INSTANCE_IDS = "boundInstanceIds";
    /**
     * Set by the plan: the slots whose compose differed from the target then, so their planned RESTART is the compose
     * update itself (a re-run that finds the target in place does not restart on top of it: SlotReconciler).
     */
    public static final String COMPOSE_CHANGE_SLOTS = "composeChangeSlots";

    /** A per-rollout policy override, the request's "updatePolicy" object as JSON text (readable in Cockpit). */
    public static final String UPDATE_POLICY_OVERRIDE = "updatePolicyOverride";
    /**
     * Set by the plan, shown on the rollout's approval: each field the per-rollout override changes, beside the fleet
     * file's value ("none" without an override), and what an override that weakens an approval removes.
     */
    public static final String POLICY_OVERRIDES = "policyOverrides";
    /** Set by the plan: true when the override removes an approval the fleet file asks for (approveLeader: false). */
    public static final String OVERRIDES_WEAKEN_APPROVALS = "overridesWeakenApprovals";
    /** The approval form's field: the approver's own acceptance of such an override ("true"), beside the approval. */
    public static final String ACCEPT_OVERRIDES = "acceptOverrides";
    /** Comma-separated ordinals an operator targeted explicitly; empty or absent: every slot in the policy's scope. */
    public static final String TARGET_ORDINALS = "targetOrdinals";
    /** Set on a rollout that goes back to a recorded revision: the revision's number. */
    public static final String ROLLBACK_TO_REVISION = "rollbackToRevision";
    /** Set on the automatic rollback a failed rollout starts: the failed rollout's process instance id. */
    public static final String ROLLBACK_OF = "rollbackOf";
    /**
     * An env rollout's environment, already encrypted to the app's key as {@code encrypted_env} hex (only the CVMs can
     * read it); absent without an env change. The clear values are never a variable.
     */
    public static final String TARGET_ENCRYPTED_ENV = "targetEncryptedEnv";
    /** Comma-separated names of the variables an env rollout sets (the {@code env_keys}); absent without an env change. */
    public static final String TARGET_ENV_KEYS = "targetEnvKeys";
    /**
     * Set by the application alone, on the rollout an approver's "rollback" of an env changed behind our back starts
     * (decide-env-drift.bpmn): each targeted slot is sent its own recorded ciphertext again, not one env for all.
     */
    public static final String ROLLBACK_RECORDED_ENV = "rollbackRecordedEnv";
    public static final String WAVES = "waves";
    public static final String WAVE = "wave";
    public static final String SURGE_SLOTS = "surgeSlots";
    /** slot → RolloutAction name, for every slot that the plan touches. */
    public static final String ACTIONS = "actions";
    public static final String UPDATE_REVISION = "updateRevision";
    public static final String LAST_GOOD_REVISION = "lastGoodRevision";
    public static final String ON_FAILURE = "onFailure";
    public static final String PAUSE_REQUESTED = "pauseRequested";
    /** Local to each instance step, JSON {slot, ordinal, action, result, at}: what GET /api/rollouts/{id} lists. */
    public static final String STEP_OUTCOME = "stepOutcome";

    /** The leader slots whose wave waits for an operator's approval (the plan's leaderSteps; empty for a rollback). */
    public static final String LEADER_STEPS = "leaderSteps";
    /** Local to the leader's approval task: the leader, the steps done so far, and what its step will do. */
    public static final String LEADER_SLOT = "leaderSlot";
    public static final String STEPS_SO_FAR = "stepsSoFar";
    public static final String LEADER_STEP = "leaderStep";

    public static final String HOOK_TIMEOUT = "hookTimeout";
    public static final String HOOK_POLL_INTERVAL = "hookPollInterval";
    public static final String HOOK_DEFAULT_RESULT = "hookDefaultResult";
    /** False when the set's drain procedure would do nothing (generic without a pre-stop endpoint): the step skips it. */
    public static final String DRAIN_HOOK_NEEDED = "drainHookNeeded";
    /** The set's type makes a replacement a new member: its leave, add and join procedures run around a REPLACE. */
    public static final String REPLACEMENT_IS_NEW_MEMBER = "replacementIsNewMember";
    /** False when the set's rejoin procedure would do nothing (generic): the step skips it. */
    public static final String REJOIN_HOOK_NEEDED = "rejoinHookNeeded";
    /**
     * Local to an instance step: when the next health probe is due, one interval after the last probe started, or as
     * soon as min ready can pass (HealthGate#nextProbe). The step waker wakes the step then.
     */
    public static final String NEXT_PROBE_AT = "nextProbeAt";
    /** Local to an instance step: when the step probes anyway if the step waker did not wake it (the timer's due date). */
    public static final String PROBE_FALLBACK_AT = "probeFallbackAt";
    /**
     * Local to a step's wait for its CVM (set as the wait begins: the event-based gateway is a scope of its own, whose
     * execution holds the message subscription): the slot the step waker watches for it. The wait for the next probe
     * copies nextProbeAt to its own scope the same way.
     */
    public static final String AWAITED_SLOT = "awaitedSlot";
    /** How long a step waits for its CVM before it polls anyway when the step waker did not wake it (ISO duration). */
    public static final String CVM_WAIT_FALLBACK = "cvmWaitFallback";

    public static final String MESSAGE_PAUSE = "PauseRollout";
    public static final String MESSAGE_RESUME = "ResumeRollout";
    public static final String MESSAGE_ABORT = "AbortRollout";
    /** Wakes an instance step waiting for its CVM (the step waker saw it settle, or go). */
    public static final String MESSAGE_CVM_CHANGED = "CvmChanged";
    /** Wakes an instance step waiting for its next health probe. */
    public static final String MESSAGE_PROBE_DUE = "ProbeDue";

    /** Set by "Plan the rollout": why the plan is refused (empty when it is not). */
    public static final String PLAN_REFUSED = "planRefused";
    /** The compose of {@link #LAST_GOOD_REVISION}: what a rollback goes back to. */
    public static final String LAST_GOOD_COMPOSE = "lastGoodCompose";
    /** Local to a surge slot's removal: true once its CVM is gone. */
    public static final String SURGE_REMOVED = "surgeRemoved";

    // --- an on-chain KMS app's compose hash registration (OnChainRegistrations)
    /** Set (true) by the BPMN around the steps whose 465 goes to the Tasklist task. */
    public static final String ON_CHAIN_STEP = "onChainStep";
    /** What the task shows, on the process instance. */
    public static final String ON_CHAIN_COMPOSE_HASH = "onChainComposeHash";
    public static final String ON_CHAIN_APP_ID = "onChainAppId";
    public static final String ON_CHAIN_CONTRACT = "onChainContract";
    public static final String ON_CHAIN_CONTRACT_CALL = "onChainContractCall";
    public static final String ON_CHAIN_DEVICE_ID = "onChainDeviceId";
    public static final String ON_CHAIN_KMS_INFO = "onChainKmsInfo";
    public static final String ON_CHAIN_STATUS = "onChainStatus";
    /** Why the task asks again: the service refused the last commit (466, 467, 468, ...); null on a first ask. */
    public static final String ON_CHAIN_REFUSAL = "onChainRefusal";
    /** The person's answer in the task (a form field, local to the task). */
    public static final String TRANSACTION_HASH = "transactionHash";
    /** The registration the rollout holds: its transaction hash, and the compose hash it registered. */
    public static final String ON_CHAIN_TRANSACTION_HASH = "onChainTransactionHash";
    public static final String ON_CHAIN_REGISTERED_HASH = "onChainRegisteredHash";

    private RolloutVariables() {
    }
}
