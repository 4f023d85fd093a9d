package com.statefulcvm.registry;

import com.statefulcvm.fleet.drift.EnvComparison;
import com.statefulcvm.fleet.drift.EnvValue;
import com.statefulcvm.fleet.drift.SlotEnv;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** Slots' envs (V29) on a real database: known, sent and drifted kept apart, and a save replaces the slot's row. */
class JdbcEnvRegistryTest {

    /** The H2 the application runs on by default; {@link JdbcEnvRegistryOnPostgresTest} runs the same on PostgreSQL. */
    RegistryDatabase database() {
        return RegistryDatabase.h2();
    }

    private final RegistryDatabase db = database();
    private final JdbcEnvRegistry envs = new JdbcEnvRegistry(db.jdbc, db.transactions);
    private final Instant at = Instant.parse("2026-12-02T10:00:00Z");

    @Test
    void aSlotsEnvIsKnownSentAndDriftedAsSavedAndEachSaveReplacesTheRow() {
        SlotEnv first = EnvComparison.judge("env-db", 1, "u1", Optional.empty(),
                EnvValue.of("aa11", List.of("DB_PASSWORD", "API_TOKEN"), "revision r1", at)).next();
        envs.save(first);
        envs.save(new SlotEnv("env-db", 0, "u0", EnvValue.of(null, List.of(), "revision r0", at), null, null));
        SlotEnv sent = first.withSent(EnvValue.of("bb22", List.of("DB_PASSWORD"), "env rollout 7", at.plusSeconds(5)));
        envs.save(sent);
        SlotEnv drifted = new SlotEnv("env-db", 1, "u1", sent.known(), sent.sent(), EnvValue.of("cc33", List.of(), "update_env by alice", at.plusSeconds(9)));
        envs.save(drifted);

        SlotEnv read = envs.slot("env-db", 1).orElseThrow();
        assertThat(read).isEqualTo(drifted);
        assertThat(read.known().keys()).containsExactly("DB_PASSWORD", "API_TOKEN");
        assertThat(read.known().encryptedEnv()).isEqualTo("aa11");
        assertThat(read.drift().at()).isEqualTo(at.plusSeconds(9));
        assertThat(envs.slots("env-db")).extracting(SlotEnv::ordinal).containsExactly(0, 1);
        assertThat(envs.slot("env-db", 0).orElseThrow().known().digest()).isEqualTo(EnvValue.NONE);
        assertThat(envs.slot("env-db", 2)).isEmpty();

        envs.save(drifted.driftAccepted("bob", at.plusSeconds(20)));
        assertThat(envs.slot("env-db", 1).orElseThrow().drifted()).isFalse();
        assertThat(envs.slot("env-db", 1).orElseThrow().known().digest()).isEqualTo(EnvValue.digestOf("cc33"));
    }
}
