package com.statefulcvm.connectors.attestation;

import java.util.List;

/** The stable names of {@link Check}s; operators see them and tests match them, so they never change. */
public final class CheckNames {

    /** The quote parses as TDX v4/v5 with an ECDSA P-256 key and QE report + PCK chain certification data. */
    public static final String QUOTE_FORMAT = "quote.format";
    /** The attestation key's ECDSA P-256 signature over the header and TD report body. */
    public static final String QUOTE_SIGNATURE = "quote.signature";
    /** The PCK certificate's key signed the QE report. */
    public static final String QE_REPORT_SIGNATURE = "qe.report.signature";
    /** The QE report's REPORTDATA starts with SHA-256(attestation key || QE auth data). */
    public static final String QE_REPORT_BINDING = "qe.report.binding";
    /** PCK leaf, intermediate, pinned root: signatures, validity at the verification time, CRLs when present. */
    public static final String PCK_CHAIN = "pck.chain";
    /** TCB info, QE identity and the CRLs are signed by Intel chains ending in the pinned root. */
    public static final String COLLATERAL_SIGNATURES = "collateral.signatures";
    /** The verification time lies within issueDate..nextUpdate of TCB info and QE identity (and the CRLs' window). */
    public static final String COLLATERAL_WINDOW = "collateral.window";
    /** The platform's TCB level by Intel's matching rules; passes unless no level matches or it is revoked. */
    public static final String TCB_STATUS = "tcb.status";
    /** The QE report's MRSIGNER, ISVPRODID, MISCSELECT, ATTRIBUTES and ISVSVN against the QE identity. */
    public static final String QE_IDENTITY = "qe.identity";
    /** TD attributes: not a debug TD, SEPT_VE_DISABLE set, no reserved bits. */
    public static final String TD_ATTRIBUTES = "td.attributes";
    /** Replaying the event log's imr 3 events, digests recomputed from event and payload, gives the quote's RTMR3. */
    public static final String EVENT_LOG_RTMR3 = "event-log.rtmr3";
    /** app-id, compose-hash, instance-id, os-image-hash, key-provider and storage-fs read from the replayed events. */
    public static final String EVENT_LOG_IDENTITY = "event-log.identity";
    /** {@link DstackVerifierClient} only: the remote verifier could not be asked or did not answer usably. */
    public static final String REMOTE_VERIFIER = "remote.verifier";
    /** {@link DstackVerifierClient} only: the remote verifier's os_image_hash_verified. */
    public static final String OS_IMAGE_HASH = "os-image.hash";

    /** The checks {@link LocalTdxVerifier} always reports, in this order. */
    public static final List<String> LOCAL = List.of(QUOTE_FORMAT, QUOTE_SIGNATURE, QE_REPORT_SIGNATURE,
            QE_REPORT_BINDING, PCK_CHAIN, COLLATERAL_SIGNATURES, COLLATERAL_WINDOW, TCB_STATUS, QE_IDENTITY,
            TD_ATTRIBUTES, EVENT_LOG_RTMR3, EVENT_LOG_IDENTITY);

    /** The checks that need collateral. */
    public static final List<String> COLLATERAL = List.of(COLLATERAL_SIGNATURES, COLLATERAL_WINDOW, TCB_STATUS,
            QE_IDENTITY);

    /** The checks that need an event log. */
    public static final List<String> EVENT_LOG = List.of(EVENT_LOG_RTMR3, EVENT_LOG_IDENTITY);

    private CheckNames() {
    }
}
