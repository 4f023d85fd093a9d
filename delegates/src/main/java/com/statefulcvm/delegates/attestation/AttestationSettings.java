package com.statefulcvm.delegates.attestation;

import com.statefulcvm.connectors.attestation.VerifyOptions;

import java.time.Instant;
import java.util.function.Function;

/**
 * Deployment-wide attestation settings: where each CVM's guest agent answers (a port of the instance's gateway URL)
 * and the verification options (trust anchors, collateral source) for a given verification time.
 */
public record AttestationSettings(int guestAgentPort, Function<Instant, VerifyOptions> options) {
}
