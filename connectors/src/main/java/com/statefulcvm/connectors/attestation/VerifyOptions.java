package com.statefulcvm.connectors.attestation;

import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * How to verify: at which instant (certificate and collateral validity), against which roots, where to find
 * collateral when the evidence carries none, and which parts of the evidence may be absent.
 *
 * @param at                 the verification time
 * @param trustAnchors       the roots a PCK and collateral chain must end in; production pins {@link IntelRootCa}
 * @param collateralSource   where to fetch collateral for evidence that has none; null for none
 * @param requireCollateral  when false, missing collateral leaves the collateral checks failed with "no collateral"
 *                           but does not make the verdict invalid
 * @param requireEventLog    when false, evidence without an event log (a bare DCAP quote) can still be valid; its
 *                           event-log checks fail with "no event log" and its identity has no dstack fields
 */
public record VerifyOptions(Instant at, List<X509Certificate> trustAnchors, CollateralSource collateralSource,
                            boolean requireCollateral, boolean requireEventLog) {

    public VerifyOptions {
        Objects.requireNonNull(at, "at");
        Objects.requireNonNull(trustAnchors, "trustAnchors");
        trustAnchors = List.copyOf(trustAnchors);
        if (trustAnchors.isEmpty()) {
            throw new IllegalArgumentException("at least one trust anchor is needed");
        }
    }

    /** Collateral and event log required. */
    public VerifyOptions(Instant at, List<X509Certificate> trustAnchors, CollateralSource collateralSource) {
        this(at, trustAnchors, collateralSource, true, true);
    }

    /** Intel's SGX Root CA pinned, no collateral source, collateral and event log required. */
    public static VerifyOptions at(Instant at) {
        return new VerifyOptions(at, List.of(IntelRootCa.certificate()), null, true, true);
    }

    public VerifyOptions withAt(Instant newAt) {
        return new VerifyOptions(newAt, trustAnchors, collateralSource, requireCollateral, requireEventLog);
    }

    public VerifyOptions withTrustAnchors(List<X509Certificate> anchors) {
        return new VerifyOptions(at, anchors, collateralSource, requireCollateral, requireEventLog);
    }

    public VerifyOptions withCollateralSource(CollateralSource source) {
        return new VerifyOptions(at, trustAnchors, source, requireCollateral, requireEventLog);
    }

    public VerifyOptions withRequireCollateral(boolean required) {
        return new VerifyOptions(at, trustAnchors, collateralSource, required, requireEventLog);
    }

    public VerifyOptions withRequireEventLog(boolean required) {
        return new VerifyOptions(at, trustAnchors, collateralSource, requireCollateral, required);
    }
}
