package com.statefulcvm.delegates.procedure;

/**
 * Names of adopt-replica-set.bpmn (business key: the set's name): a set whose app was made elsewhere is surveyed, an
 * approver accepts what it runs, and only then does the orchestrator act on it.
 */
public final class AdoptionVariables extends ProcedureVariables {

    public static final String PROCESS_KEY = "adopt-replica-set";
    /** Why the adoption was started: the operator's reason, or the start-up's proposal. */
    public static final String ADOPTION_REASON = "adoptionReason";
    /** The survey in words: per slot, its CVM, what it runs, its health and whether it would be admitted. */
    public static final String ADOPTION_REPORT = "adoptionReport";
    /** One line: what an approval accepts, or why the set cannot be adopted. */
    public static final String ADOPTION_SUMMARY = "adoptionSummary";
    /** True when nothing keeps an approver from accepting the survey. */
    public static final String ADOPTION_ACCEPTABLE = "adoptionAcceptable";
    /** The slots whose evidence would be refused, kept running unadmitted if the adoption is approved. */
    public static final String REFUSED_SLOTS = "refusedSlots";
    /** Slot name to the compose hash its CVM reported at the survey: the approval accepts exactly that. */
    public static final String SURVEYED_HASHES = "surveyedComposeHashes";
    /** The running slots asked for their sequence number (sequence-&lt;type&gt;), in ordinal order; empty when the type has none. */
    public static final String SEQUENCE_SLOTS = "surveyedSlots";
    /** Each asked slot's sequence number, or why it has none, one line each, for the approver. */
    public static final String SEQUENCE_REPORT = "adoptionSequences";
    /** The diff from the fleet file's compose to the one the first revision takes; empty when they are the same. */
    public static final String FLEET_FILE_DIFF = "fleetFileDiff";
    /** The approver's acceptance of the refused slots, kept running unadmitted; needed when any would be refused. */
    public static final String ACCEPT_REFUSED = "acceptRefused";
    /** Who approved the adoption, the authenticated user who completed the task. */
    public static final String DECIDED_BY = "decidedBy";
    /** The revision the adoption recorded from what runs. */
    public static final String ADOPTED_REVISION = "adoptedRevision";
    /** Why the survey is run again (the app changed between the survey and the approval); null the first time. */
    public static final String SURVEY_AGAIN_BECAUSE = "surveyAgainBecause";
    /** The short result: awaiting-approval, cannot-adopt, rejected or adopted. */
    public static final String ADOPTION_RESULT = "adoptionResult";
    /** The BPMN error of an app whose CVMs changed after the survey an approver accepted. */
    public static final String APP_CHANGED = "APP_CHANGED";

    private AdoptionVariables() {
    }
}
