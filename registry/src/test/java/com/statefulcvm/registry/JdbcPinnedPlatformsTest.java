package com.statefulcvm.registry;

import com.statefulcvm.fleet.PlatformMeasurements;
import com.statefulcvm.fleet.admission.PinnedPlatform;
import org.junit.jupiter.api.Test;

import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

/** Platforms pinned by approvers (V27) on a real database: one row per platform, however often it is pinned. */
class JdbcPinnedPlatformsTest {

    /** The H2 the application runs on by default; {@link JdbcPinnedPlatformsOnPostgresTest} runs the same on PostgreSQL. */
    RegistryDatabase database() {
        return RegistryDatabase.h2();
    }

    private final RegistryDatabase db = database();
    private final JdbcPinnedPlatforms pins = new JdbcPinnedPlatforms(db.jdbc, db.transactions);
    private final Instant at = Instant.parse("2026-12-02T03:00:00Z");

    @Test
    void aPlatformIsPinnedOncePerSetAndListedInTheOrderItWasPinned() {
        PlatformMeasurements newer = new PlatformMeasurements("refused db-1", "AA".repeat(48), "bb".repeat(48), "cc".repeat(48), "dd".repeat(48));
        pins.pin(new PinnedPlatform("db", newer, "alice", at, "db-1: ADMISSION_REJECTED: platform ..."));
        pins.pin(new PinnedPlatform("db", new PlatformMeasurements("again", "aa".repeat(48), "bb".repeat(48), "cc".repeat(48),
                "dd".repeat(48)), "bob", at.plusSeconds(5), "db-2"));
        pins.pin(new PinnedPlatform("db", new PlatformMeasurements(null, "11".repeat(48), "bb".repeat(48), "cc".repeat(48),
                "dd".repeat(48)), "bob", at.plusSeconds(9), "db-0"));
        assertThat(pins.pinned("db")).hasSize(2);
        PinnedPlatform first = pins.pinned("db").get(0);
        assertThat(first.pinnedBy()).isEqualTo("alice");
        assertThat(first.platform().getMrtd()).isEqualTo("aa".repeat(48));
        assertThat(first.platform().sameMeasurements(newer)).isTrue();
        assertThat(pins.pinned("other")).isEmpty();
    }
}
