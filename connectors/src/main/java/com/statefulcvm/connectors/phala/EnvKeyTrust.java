package com.statefulcvm.connectors.phala;

import java.util.Objects;

/**
 * Where an app's env encryption key comes from and what it must be signed by: the KMS to ask ({@code kms}, its id or
 * slug; null when none is configured) and the verifier holding the trusted KMS signing keys.
 */
public record EnvKeyTrust(String kms, EnvKeyVerifier verifier) {

    public EnvKeyTrust {
        Objects.requireNonNull(verifier, "verifier");
        kms = kms == null || kms.isBlank() ? null : kms.trim();
    }
}
