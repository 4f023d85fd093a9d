package com.statefulcvm.connectors.attestation;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;

/**
 * The real TDX evidence in {@code <repo>/../shared/test-vectors/attestation} (read-only; tests tamper with copies in
 * memory). Resolved from the connectors module directory, which is Surefire's working directory.
 */
final class AttestationVectors {

    static final Path DIR = locate();

    /** One hour after the TCB info's issueDate, where dcap-qvl's reference verdict was taken. */
    static final Instant IN_WINDOW = Instant.parse("2025-06-19T11:16:03Z");
    /** "Today" for the project: long after the collateral's nextUpdate. */
    static final Instant TODAY = Instant.parse("2026-11-21T00:00:00Z");

    static final String APP_ID = "86b0e55f2fa8e4fb69d890f14f54d5612707646e";
    static final String COMPOSE_HASH = "86b0e55f2fa8e4fb69d890f14f54d5612707646e2573d54e0d2ddaaade77caa9";
    static final String INSTANCE_ID = "050bf89570575fe8fab4cb8f0a62a9e64efe8ead";
    static final String OS_IMAGE_HASH = "07a2388c7a6a1b6a646d443f1517990a4ec294471d63146cda9d56972765051d";

    private AttestationVectors() {
    }

    private static Path locate() {
        Path candidate = Path.of("").toAbsolutePath().resolve("../../shared/test-vectors/attestation").normalize();
        if (!Files.isDirectory(candidate)) {
            Path fromRoot = Path.of("").toAbsolutePath().resolve("../shared/test-vectors/attestation").normalize();
            if (Files.isDirectory(fromRoot)) {
                return fromRoot;
            }
        }
        return candidate;
    }

    static byte[] bytes(String name) {
        Path file = DIR.resolve(name);
        if (!Files.isRegularFile(file)) {
            fail("attestation test vector " + file + " is missing: these tests need the shared test vectors checked"
                    + " out beside the repository (<repo>/../shared/test-vectors/attestation)");
        }
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new AssertionError("cannot read " + file, e);
        }
    }

    static String text(String name) {
        return new String(bytes(name), StandardCharsets.UTF_8);
    }

    static byte[] dcapQuote() {
        return bytes("dcap-tdx-quote.bin");
    }

    static Collateral dcapCollateral() {
        return Collateral.fromJson(text("dcap-tdx-quote-collateral.json"));
    }

    static String getQuoteJson() {
        return text("dstack-0.6.0-getquote.json");
    }

    static Evidence dstackEvidence() {
        return Evidence.fromGetQuoteJson(getQuoteJson());
    }

    static Evidence dcapEvidence() {
        return new Evidence(dcapQuote(), null, null, dcapCollateral());
    }
}
