package com.statefulcvm.connectors.attestation;

import java.util.Objects;

/**
 * One named verification step and its outcome. Names are stable (see {@link CheckNames}); the reason is for people.
 */
public record Check(String name, boolean passed, String reason) {

    public Check {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(reason, "reason");
    }

    static Check pass(String name, String reason) {
        return new Check(name, true, reason);
    }

    static Check fail(String name, String reason) {
        return new Check(name, false, reason);
    }
}
