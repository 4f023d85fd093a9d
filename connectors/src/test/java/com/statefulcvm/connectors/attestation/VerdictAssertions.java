package com.statefulcvm.connectors.attestation;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

/** Readable assertions on verdicts: which checks failed, with what reason. */
final class VerdictAssertions {

    private VerdictAssertions() {
    }

    static Check check(Verdict verdict, String name) {
        return verdict.check(name).orElseThrow(() -> new AssertionError("no check " + name + " in " + verdict));
    }

    static void assertPassed(Verdict verdict, String... names) {
        for (String name : names) {
            assertThat(check(verdict, name).passed()).as("%s should pass: %s", name, check(verdict, name).reason())
                    .isTrue();
        }
    }

    static void assertFailed(Verdict verdict, String name, String reasonFragment) {
        Check check = check(verdict, name);
        assertThat(check.passed()).as("%s should fail", name).isFalse();
        assertThat(check.reason()).containsIgnoringCase(reasonFragment);
    }

    static List<String> failedNames(Verdict verdict) {
        return verdict.failedChecks().stream().map(Check::name).toList();
    }
}
