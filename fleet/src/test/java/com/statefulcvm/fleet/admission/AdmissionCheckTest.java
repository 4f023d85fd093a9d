package com.statefulcvm.fleet.admission;

import com.statefulcvm.fleet.FencePolicy;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class AdmissionCheckTest {

    private static final Instant ATTESTED = Instant.parse("2026-11-25T17:00:00Z");

    @Test
    void phalaUptimeInWordsIsRead() {
        assertThat(BootMarker.uptime("1h 2m 3s")).contains(Duration.ofSeconds(3723));
        assertThat(BootMarker.uptime("45s")).contains(Duration.ofSeconds(45));
        assertThat(BootMarker.uptime("3d 4h")).contains(Duration.ofHours(76));
        assertThat(BootMarker.uptime("12")).contains(Duration.ofSeconds(12));
        assertThat(BootMarker.uptime("0s")).contains(Duration.ZERO);
        assertThat(BootMarker.uptime(null)).isEmpty();
        assertThat(BootMarker.uptime("")).isEmpty();
        assertThat(BootMarker.uptime("unknown")).isEmpty();
        assertThat(BootMarker.uptime("5 parsecs")).isEmpty();
    }

    @Test
    void theBootBeginsUptimeBeforeNow() {
        assertThat(BootMarker.bootedAt(ATTESTED.plusSeconds(100), "1m 40s")).contains(ATTESTED);
    }

    @Test
    void theAttestedBootKeepsItsAdmissionWithinTheToleranceOfOneSecondUptimes() {
        // attested 300 ms after boot; uptime read in whole seconds makes the boot seem up to a second later
        assertThat(AdmissionCheck.judge(true, Optional.empty(), true, ATTESTED, ATTESTED.plusMillis(900)).kind())
                .isEqualTo(AdmissionCheck.Kind.ADMITTED);
        assertThat(AdmissionCheck.judge(true, Optional.empty(), true, ATTESTED, ATTESTED.minusSeconds(3600)).kind())
                .isEqualTo(AdmissionCheck.Kind.ADMITTED);
    }

    @Test
    void aBootThatBeganAfterTheAttestationIsAttestedAgain() {
        AdmissionCheck.Judgement judgement = AdmissionCheck.judge(true, Optional.empty(), true, ATTESTED, ATTESTED.plusSeconds(5));
        assertThat(judgement.kind()).isEqualTo(AdmissionCheck.Kind.NEEDS_ATTESTATION);
        assertThat(judgement.reason()).startsWith("restarted since its last attestation (booted at 2026-11-25T17:00:05Z");
    }

    @Test
    void noVerdictForTheCurrentBootOrAFailedOneIsAttestedAgain() {
        assertThat(AdmissionCheck.judge(true, Optional.empty(), null, null, null).reason()).isEqualTo("no attestation of its current boot");
        assertThat(AdmissionCheck.judge(true, Optional.empty(), false, ATTESTED, null).reason()).isEqualTo("its last attestation failed");
    }

    @Test
    void anUnknownBootJudgesTheVerdictAlone() {
        assertThat(AdmissionCheck.judge(true, Optional.empty(), true, ATTESTED, null).kind()).isEqualTo(AdmissionCheck.Kind.ADMITTED);
    }

    @Test
    void aFencedSlotStaysFencedWhateverItsVerdictAndASetWithoutAttestationIsAdmitted() {
        Fence fence = new Fence("db", 1, "i-1", FencePolicy.STOP, "QUOTE_INVALID: bad signature", ATTESTED, "admit-instance 42");
        AdmissionCheck.Judgement fenced = AdmissionCheck.judge(true, Optional.of(fence), true, ATTESTED, null);
        assertThat(fenced.kind()).isEqualTo(AdmissionCheck.Kind.FENCED);
        assertThat(fenced.reason()).isEqualTo("fenced (stopped): attestation failed: QUOTE_INVALID: bad signature");
        assertThat(AdmissionCheck.judge(false, Optional.empty(), null, null, null).kind()).isEqualTo(AdmissionCheck.Kind.ADMITTED);
    }
}
