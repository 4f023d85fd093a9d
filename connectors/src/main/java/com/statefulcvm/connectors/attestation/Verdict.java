package com.statefulcvm.connectors.attestation;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The outcome of verifying one piece of evidence.
 *
 * @param valid       every required check passed
 * @param checks      every check, passed or not, in a stable order
 * @param identity    what the evidence establishes about the CVM; never null, fields may be
 * @param tcbStatus   Intel's TCB status ({@code UpToDate}, {@code SWHardeningNeeded}, {@code OutOfDate}, ...), or
 *                    null when it could not be determined
 * @param advisoryIds Intel security advisories that apply to the matched TCB levels
 * @param reportData  the quote's REPORTDATA, lower-case hex, or null when the quote could not be read
 */
public record Verdict(boolean valid, List<Check> checks, Identity identity, String tcbStatus,
                      List<String> advisoryIds, String reportData) {

    public Verdict {
        checks = List.copyOf(checks);
        advisoryIds = List.copyOf(advisoryIds);
        Objects.requireNonNull(identity, "identity");
    }

    public Optional<Check> check(String name) {
        return checks.stream().filter(c -> c.name().equals(name)).findFirst();
    }

    public List<Check> failedChecks() {
        return checks.stream().filter(c -> !c.passed()).toList();
    }

    /** A verdict for evidence that could not be judged at all, for instance when a remote verifier is down. */
    static Verdict failure(Check why) {
        return new Verdict(false, List.of(why), Identity.NONE, null, List.of(), null);
    }
}
