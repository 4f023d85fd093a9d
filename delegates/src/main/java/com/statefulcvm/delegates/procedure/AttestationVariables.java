package com.statefulcvm.delegates.procedure;

/**
 * Names of attest-instance.bpmn (called by every procedure that brings a CVM up), of the fence it may set, and of
 * admit-instance.bpmn (the health monitor's re-attestation of a new boot).
 */
public final class AttestationVariables extends ProcedureVariables {

    public static final String ADMIT_PROCESS = "admit-instance";
    /** The message whose start event begins admit-instance.bpmn; business key {@code <set>/<ordinal>}. */
    public static final String ADMIT_MESSAGE = "AdmitInstance";
    /** Why the monitor re-attests the instance, in words. */
    public static final String ADMISSION_REASON = "admissionReason";

    // --- out of "Attest the instance"
    public static final String ATTESTATION_CODE = "attestationCode";
    public static final String ATTESTATION_REASON = "attestationReason";
    public static final String ATTESTATION_CHECKS = "attestationChecks";
    /** The platform the verified evidence showed, in full ("MRTD …, RTMR0 …, RTMR1 …, RTMR2 …"); absent without one. */
    public static final String ATTESTED_PLATFORM = "attestedPlatform";
    /**
     * The docker compose a refused instance runs when it runs one we do not intend, proven by its measured compose hash
     * (changed behind our back); absent otherwise.
     */
    public static final String ATTESTED_COMPOSE = "attestedCompose";
    /** Who lifted the slot's fence by this attestation (a readmit, a lights-out recovery's override). */
    public static final String FENCE_LIFTED_BY = "fenceLiftedBy";

    // --- the fence
    /** The procedure that fences, when the caller names it (else the top of the call chain). */
    public static final String FENCED_BY = "fencedBy";
    /**
     * STOP or DRAIN, the set's on-failure; {@link #FENCE_HELD} when the disruption budget kept the slot from a fence;
     * {@link #FENCE_YIELDED} when the monitor's re-attestation gave the slot up to a procedure.
     */
    public static final String FENCE_ACTION = "fenceAction";
    /** The refused instance keeps running unadmitted: fencing it would have taken the set past its disruption budget. */
    public static final String FENCE_HELD = "HELD";
    /**
     * The monitor's re-attestation did not judge: a rollout, heal, scale or recovery took the slot over since it
     * started (the instance it asked about is being changed) and attests the slot itself.
     */
    public static final String FENCE_YIELDED = "YIELDED";
    /** Which procedure the re-attestation yielded to, in words. */
    public static final String FENCE_YIELDED_TO = "fenceYieldedTo";
    /** Why the fence was held: the budget's answer, in words. */
    public static final String FENCE_HELD_BECAUSE = "fenceHeldBecause";
    /** Under STOP: true once Phala shows the fenced CVM stopped (or gone); until then the stop is asked again. */
    public static final String FENCE_HOLDS = "fenceHolds";

    private AttestationVariables() {
    }
}
