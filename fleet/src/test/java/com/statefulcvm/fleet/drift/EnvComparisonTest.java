package com.statefulcvm.fleet.drift;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class EnvComparisonTest {

    private static final Instant AT = Instant.parse("2026-12-02T10:00:00Z");

    private static EnvValue env(String ciphertext, String source) {
        return EnvValue.of(ciphertext, List.of("DB_PASSWORD"), source, AT);
    }

    @Test
    void theFirstLookAtACvmRecordsWhatItRunsAndAnotherCvmInTheSlotStartsOver() {
        EnvComparison.Judgement first = EnvComparison.judge("db", 1, "u1", Optional.empty(), env("aa11", "revision r1"));
        assertThat(first.verdict()).isEqualTo(EnvComparison.Verdict.FIRST_SEEN);
        assertThat(first.next().known().digest()).isEqualTo(EnvValue.digestOf("AA11"));

        EnvComparison.Judgement replaced = EnvComparison.judge("db", 1, "u2", Optional.of(first.next()), env("bb22", "revision r7"));
        assertThat(replaced.verdict()).as("a new CVM in the slot").isEqualTo(EnvComparison.Verdict.FIRST_SEEN);
    }

    @Test
    void whatWeSentIsConfirmedWhenSeenAndAnyOtherEnvIsADriftThatGoesWhenTheKnownOneIsBack() {
        SlotEnv known = EnvComparison.judge("db", 0, "u1", Optional.empty(), env("aa11", "r1")).next();
        assertThat(EnvComparison.judge("db", 0, "u1", Optional.of(known), env("0xAA11", "r2")).verdict()).isEqualTo(EnvComparison.Verdict.KNOWN);

        SlotEnv sent = known.withSent(env("cc33", "env rollout 42"));
        EnvComparison.Judgement confirmed = EnvComparison.judge("db", 0, "u1", Optional.of(sent), env("cc33", "r3"));
        assertThat(confirmed.verdict()).isEqualTo(EnvComparison.Verdict.SENT_CONFIRMED);
        assertThat(confirmed.next().known().source()).isEqualTo("env rollout 42");
        assertThat(confirmed.next().sent()).isNull();

        EnvComparison.Judgement drifted = EnvComparison.judge("db", 0, "u1", Optional.of(confirmed.next()), env("dd44", "update_env by alice: r4"));
        assertThat(drifted.verdict()).isEqualTo(EnvComparison.Verdict.DRIFTED);
        assertThat(drifted.changed()).isTrue();
        assertThat(drifted.summary()).contains("CHANGED behind our back", "update_env by alice").doesNotContain("dd44");
        EnvComparison.Judgement again = EnvComparison.judge("db", 0, "u1", Optional.of(drifted.next()), env("dd44", "r4"));
        assertThat(again.verdict()).isEqualTo(EnvComparison.Verdict.DRIFTED);
        assertThat(again.changed()).as("the same drift seen again").isFalse();

        EnvComparison.Judgement back = EnvComparison.judge("db", 0, "u1", Optional.of(drifted.next()), env("cc33", "r5"));
        assertThat(back.verdict()).isEqualTo(EnvComparison.Verdict.KNOWN);
        assertThat(back.next().drifted()).isFalse();
        assertThat(back.changed()).isTrue();
    }

    @Test
    void whatWeSentToASlotNeverLookedAtIsConfirmedNotFirstSeen() {
        SlotEnv sent = new SlotEnv("db", 2, "u2", null, env("ff66", "rollout 9"), null);
        EnvComparison.Judgement judged = EnvComparison.judge("db", 2, "u2", Optional.of(sent), env("ff66", "r1"));
        assertThat(judged.verdict()).isEqualTo(EnvComparison.Verdict.SENT_CONFIRMED);
        assertThat(judged.next().known().source()).isEqualTo("rollout 9");
    }

    @Test
    void anAcceptedDriftIsTheKnownEnvAndNoEnvIsAnEnvToo() {
        SlotEnv known = EnvComparison.judge("db", 0, "u1", Optional.empty(), env(null, "r1")).next();
        assertThat(known.known().digest()).isEqualTo(EnvValue.NONE);
        SlotEnv drifted = EnvComparison.judge("db", 0, "u1", Optional.of(known), env("ee55", "r2")).next();
        SlotEnv accepted = drifted.driftAccepted("bob", AT);
        assertThat(accepted.drifted()).isFalse();
        assertThat(accepted.known().source()).startsWith("accepted by bob");
        assertThat(EnvComparison.judge("db", 0, "u1", Optional.of(accepted), env("ee55", "r2")).verdict()).isEqualTo(EnvComparison.Verdict.KNOWN);
    }
}
