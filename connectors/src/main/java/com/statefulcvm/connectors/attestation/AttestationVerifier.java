package com.statefulcvm.connectors.attestation;

/**
 * Checks that TDX evidence is genuine and what it says. Implementations never throw for bad evidence or an unreachable
 * remote verifier: that is a {@link Verdict} with {@code valid == false} and a failing {@link Check} saying why.
 */
public interface AttestationVerifier {

    Verdict verify(Evidence evidence, VerifyOptions options);
}
