package com.statefulcvm.registry;

import com.statefulcvm.fleet.scaling.RetainedSlot;
import com.statefulcvm.fleet.scaling.ScaledCount;
import org.junit.jupiter.api.Test;

import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

/** The scaled counts and retained slots (migration V6) on a real database, as a scale's steps write them. */
class JdbcScaleRegistryTest {

    /** The H2 the application runs on by default; {@link JdbcScaleRegistryOnPostgresTest} runs the same on PostgreSQL. */
    RegistryDatabase database() {
        return RegistryDatabase.h2();
    }

    private final RegistryDatabase db = database();
    private final JdbcScaleRegistry scales = new JdbcScaleRegistry(db.jdbc, db.transactions);
    private final Instant at = Instant.parse("2026-11-25T01:46:38Z");

    @Test
    void aScaledCountIsRecordedReplacedAndForgotten() {
        assertThat(scales.scaled("kv")).isEmpty();
        scales.recordScaled(new ScaledCount("kv", 4, 3, "olivia", at));
        scales.recordScaled(new ScaledCount("kv", 5, 3, "olivia", at.plusSeconds(5)));
        assertThat(scales.scaled("kv")).contains(new ScaledCount("kv", 5, 3, "olivia", at.plusSeconds(5)));
        assertThat(scales.scaled("other")).isEmpty();
        scales.forgetScaled("kv");
        assertThat(scales.scaled("kv")).isEmpty();
    }

    @Test
    void retainedSlotsAreKeptInOrdinalOrderAndReleased() {
        scales.retain(new RetainedSlot("kv", 4, "kv-4", "cvm-4", "i-4", "olivia", at));
        scales.retain(new RetainedSlot("kv", 3, "kv-3", "cvm-3", "i-3", "olivia", at));
        scales.retain(new RetainedSlot("kv", 3, "kv-3", "cvm-3b", "i-3b", "admin", at.plusSeconds(1)));
        assertThat(scales.retained("kv")).extracting(RetainedSlot::slot).containsExactly("kv-3", "kv-4");
        assertThat(scales.retained("kv").get(0).instanceId()).isEqualTo("i-3b");
        assertThat(scales.retained("kv").get(0).retainedAt()).isEqualTo(at.plusSeconds(1));
        scales.release("kv", 3);
        scales.release("kv", 7);
        assertThat(scales.retained("kv")).extracting(RetainedSlot::slot).containsExactly("kv-4");
    }
}
