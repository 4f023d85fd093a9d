package com.statefulcvm.delegates.procedure;

/** Names of the lights-out recovery process and its variables, shared by the delegates, the REST API and the tests. */
public final class LightsOutVariables extends ProcedureVariables {

    public static final String PROCESS_KEY = "lights-out-recovery";

    // --- in
    /** Why, in words: {@code requested by <user>[: <reason>]}. */
    public static final String LIGHTS_OUT_REASON = "lightsOutReason";
    /**
     * The operator's recorded override: fenced slots are started, asked and attested like the others, and an attestation
     * that admits one lifts its fence. Without it a fenced slot is not started, never a seed nor a follower.
     */
    public static final String READMIT_FENCED = "readmitFenced";
    /**
     * The operator's recorded override to recover a set that is not in an outage (every member is restarted): refused
     * without it, and without a reason, unless the set is in one.
     */
    public static final String OVERRIDE_NO_OUTAGE = "overrideNoOutage";

    // --- set by "Plan the recovery"
    /** Empty when the recovery can go on; else why not (the procedure ends at Refused). */
    public static final String REFUSAL = "lightsOutRefusal";
    /** Every slot of the set, lowest ordinal first. */
    public static final String ALL_SLOTS = "lightsOutSlots";
    /** lights-out.approval: an operator confirms or overrides the seed even when every replica answered. */
    public static final String APPROVAL_REQUIRED = "lightsOutApproval";
    public static final String SEQUENCE_TIMEOUT = "sequenceTimeout";
    public static final String SEED_TIMEOUT = "seedTimeout";
    /** slot to its fence, for the fenced slots the recovery leaves alone (no override): not started, asked or joined. */
    public static final String FENCED_SLOTS = "fencedSlots";
    /** slot to the instance_id the registry knew for it: a CVM with another one has lost its data and identity. */
    public static final String KNOWN_INSTANCE_IDS = "knownInstanceIds";

    // --- per slot
    /** Out of sequence-&lt;type&gt;: the replica's number. */
    public static final String SEQUENCE_NUMBER = "sequenceNumber";
    /** Out of sequence-&lt;type&gt;: what the number is, in words. */
    public static final String SEQUENCE_SOURCE = "sequenceSource";
    /** Out of sequence-&lt;type&gt;: the generation of history the number belongs to (Patroni's timeline), or none. */
    public static final String SEQUENCE_GENERATION = "sequenceGeneration";
    /** Why the replica has no number (the procedure failed, or did not answer in time). */
    public static final String SEQUENCE_ERROR = "sequenceError";

    // --- collected
    /** slot to number (answered replicas only). */
    public static final String SEQUENCE_NUMBERS = "sequenceNumbers";
    public static final String SEQUENCE_SOURCES = "sequenceSources";
    /** slot to generation (answered replicas whose store has them): compared before the number. */
    public static final String SEQUENCE_GENERATIONS = "sequenceGenerations";
    /** slot to why it did not answer: reported, never guessed. */
    public static final String UNANSWERED = "unansweredReplicas";
    /** The numbers in words, one line per replica: what the operator's form shows. */
    public static final String SEQUENCE_REPORT = "sequenceReport";

    // --- the seed
    /** The replica the numbers chose (the largest); empty when none answered. */
    public static final String CHOSEN_SEED = "chosenSeed";
    /** The replica that is seeded: the chosen one, or the operator's choice. */
    public static final String SEED = "seed";
    /**
     * Why the recovery is refused unless an approver overrides it with a reason (the form's comment): every replica
     * reported an empty state; null otherwise.
     */
    public static final String EMPTY_STATE = "emptyStateRefusal";
    /** The operator must decide: approval is on, a replica did not answer, none did, or all reported an empty state. */
    public static final String NEEDS_DECISION = "seedDecisionNeeded";
    public static final String SEED_OVERRIDDEN = "seedOverridden";
    /**
     * The members released with the seed before its health gate, most recent first: the quorum it needs to serve
     * (a raft store's majority); empty for a store that serves from one member.
     */
    public static final String SEED_QUORUM_PARTNERS = "seedQuorumPartners";
    /** The set's quorum rule at the plan ({@link com.statefulcvm.fleet.QuorumRule}: majority, all, one or a number), from its workload type. */
    public static final String QUORUM_RULE = "quorumRule";
    /** The other slots, lowest ordinal first: they join as followers one at a time. */
    public static final String FOLLOWERS = "followers";
    /** Followers that did not join within lights-out.seed-timeout: slot to why. */
    public static final String FOLLOWERS_NOT_JOINED = "followersNotJoined";

    // --- out
    /** recovered, recovered-partly, rejected, seed-failed or refused. */
    public static final String RESULT = "lightsOutResult";

    /** The fenced slots whose fences the recovery's override lets it start and attest (readmitFenced). */
    public static final String FENCES_OVERRIDDEN = "fencesOverridden";
    /** Local to a slot's start: its CVM is gone (it cannot be started, only reported). */
    public static final String CVM_MISSING = "cvmMissing";

    /** {@link #TRIGGER_OUTAGE} when the health monitor proposed the recovery (its seed decision is then an operator's). */
    public static final String LIGHTS_OUT_TRIGGER = "lightsOutTrigger";
    public static final String TRIGGER_OUTAGE = "outage";

    private LightsOutVariables() {
    }
}
