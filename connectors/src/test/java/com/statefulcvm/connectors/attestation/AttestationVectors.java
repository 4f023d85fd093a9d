package com.statefulcvm.connectors.attestation;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;

/**
 * The real TDX evidence in {@code src/test/resources/test-vectors/attestation} (its README names where each file comes
 * from; read-only: tests tamper with copies in memory). Read from the test classpath, so a clone alone runs these tests.
 */
final class AttestationVectors {

    /** Where the vectors sit on the test classpath (the simulator's and web's tests get them from the test jar). */
    static final String RESOURCE_DIR = "/test-vectors/attestation/";

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

    static byte[] bytes(String name) {
        try (InputStream in = AttestationVectors.class.getResourceAsStream(RESOURCE_DIR + name)) {
            if (in == null) {
                fail("attestation test vector " + RESOURCE_DIR + name + " is not on the test classpath");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new AssertionError("cannot read " + RESOURCE_DIR + name, e);
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
