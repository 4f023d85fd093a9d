package com.statefulcvm.connectors.attestation;

import java.util.Optional;

/**
 * Finds the collateral for a quote (by its PCK certificate's FMSPC and CA). Empty means "this source has none";
 * an unreachable or misbehaving source throws {@link CollateralFetchException}, which the verifier reports.
 */
public interface CollateralSource {

    Optional<Collateral> fetch(Quote quote);
}
