package com.statefulcvm.fleet.admission;

import com.statefulcvm.fleet.PlatformMeasurements;
import com.statefulcvm.fleet.AttestationSpec;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class AdmissionPolicyTest {

    private static final String APP = "86b0e55f2fa8e4fb69d890f14f54d5612707646e";
    private static final String COMPOSE = "86b0e55f2fa8e4fb69d890f14f54d5612707646e2573d54e0d2ddaaade77caa9";
    private static final String INSTANCE = "050bf89570575fe8fab4cb8f0a62a9e64efe8ead";
    private static final String KMS = "3059301306072a8648ce3d020106082a8648ce3d03010703420004";
    private static final String OS = "07a2388c7a6a1b6a646d443f1517990a4ec294471d63146cda9d56972765051d";

    private final AttestationSpec spec = new AttestationSpec();
    private final NonceBinding nonce = NonceBinding.fresh(APP, "webdemo-1", INSTANCE);

    private AttestedIdentity honest() {
        return new AttestedIdentity(true, List.of(), APP, COMPOSE, INSTANCE, OS, "kms", KMS, "UpToDate", nonce.reportDataHex());
    }

    private AdmissionRequest request() {
        return new AdmissionRequest("webdemo-1", "app_" + APP.toUpperCase(), Set.of(COMPOSE, "ff".repeat(32)), INSTANCE, nonce.reportDataHex());
    }

    private AdmissionDecision decide(AttestedIdentity evidence) {
        return new AdmissionPolicy(spec).decide(request(), evidence);
    }

    @Test
    void honestEvidenceIsAdmitted() {
        spec.setKmsKeyIds(List.of(KMS.toUpperCase()));
        spec.setOsImageHashes(List.of(OS));
        assertThat(decide(honest())).isEqualTo(AdmissionDecision.admit());
    }

    @Test
    void evidenceThatDidNotVerifyIsQuoteInvalid() {
        AttestedIdentity e = new AttestedIdentity(false, List.of("quote.signature"), APP, COMPOSE, INSTANCE, OS, "kms", KMS, "UpToDate", nonce.reportDataHex());
        assertThat(decide(e).code()).isEqualTo("QUOTE_INVALID");
        assertThat(decide(e).summary()).contains("quote.signature");
    }

    @Test
    void aReplayedQuoteDoesNotCarryTheNonce() {
        AttestedIdentity replayed = new AttestedIdentity(true, List.of(), APP, COMPOSE, INSTANCE, OS, "kms", KMS, "UpToDate",
                NonceBinding.fresh(APP, "webdemo-1", INSTANCE).reportDataHex());
        assertThat(decide(replayed).code()).isEqualTo("REPORT_DATA_MISMATCH");
    }

    @Test
    void anUnpinnedKmsKeyIsRefused() {
        spec.setKmsKeyIds(List.of("ab".repeat(20)));
        assertThat(decide(honest()).code()).isEqualTo("KMS_POLICY_MISMATCH");
    }

    @Test
    void everyIdentityMismatchIsListed() {
        AttestedIdentity other = new AttestedIdentity(true, List.of(), "11".repeat(20), "22".repeat(32), "33".repeat(20), OS,
                "kms", KMS, "OutOfDate", nonce.reportDataHex());
        AdmissionDecision decision = decide(other);
        assertThat(decision.code()).isEqualTo("ADMISSION_REJECTED");
        assertThat(decision.reasons()).hasSize(4);
        assertThat(decision.summary()).contains("app_id").contains("compose_hash").contains("instance_id").contains("TCB status OutOfDate");
    }

    /** Issue 20: the platform is pinned: a TD with another OS image (MRTD, RTMR0-2) on an up-to-date host is refused. */
    @Test
    void aTdWithAnotherOsImageOnAnUpToDateHostIsRefused() {
        String mrtd = "a1".repeat(48);
        String rtmr0 = "b2".repeat(48);
        String rtmr1 = "c3".repeat(48);
        String rtmr2 = "d4".repeat(48);
        spec.setPlatforms(List.of(new PlatformMeasurements("dstack-0.5.3", mrtd.toUpperCase(), rtmr0, rtmr1, rtmr2)));
        AttestedIdentity pinned = new AttestedIdentity(true, List.of(), APP, COMPOSE, INSTANCE, OS, "kms", KMS, "UpToDate",
                nonce.reportDataHex(), mrtd, rtmr0, rtmr1, rtmr2);
        assertThat(decide(pinned).admitted()).isTrue();
        AttestedIdentity otherImage = new AttestedIdentity(true, List.of(), APP, COMPOSE, INSTANCE, OS, "kms", KMS, "UpToDate",
                nonce.reportDataHex(), mrtd, rtmr0, "ee".repeat(48), "ff".repeat(48));
        AdmissionDecision refused = decide(otherImage);
        assertThat(refused.code()).isEqualTo("ADMISSION_REJECTED");
        assertThat(refused.summary()).contains("is none of the set's platforms [dstack-0.5.3 (MRTD A1A1A1A1A1A1…)]: another OS image or firmware");
        AttestedIdentity unreported = new AttestedIdentity(true, List.of(), APP, COMPOSE, INSTANCE, OS, "kms", KMS, "UpToDate",
                nonce.reportDataHex());
        assertThat(decide(unreported).admitted()).as("measurements the verifier does not report are no match").isFalse();
    }

    @Test
    void aCvmWeCreatedMayBringANewInstanceId() {
        AdmissionRequest created = new AdmissionRequest("webdemo-1", APP, Set.of(COMPOSE), null, nonce.reportDataHex());
        AttestedIdentity fresh = new AttestedIdentity(true, List.of(), APP, COMPOSE, "44".repeat(20), OS, "kms", KMS, "UpToDate", nonce.reportDataHex());
        assertThat(new AdmissionPolicy(spec).decide(created, fresh).admitted()).isTrue();
    }

    @Test
    void theNonceBindingDependsOnEveryFieldAndTheNonce() {
        byte[] n = new byte[32];
        String base = NonceBinding.of(APP, "webdemo-1", INSTANCE, n).reportDataHex();
        assertThat(base).hasSize(128).endsWith("0".repeat(64));
        assertThat(NonceBinding.of(APP, "webdemo-2", INSTANCE, n).reportDataHex()).isNotEqualTo(base);
        n[0] = 1;
        assertThat(NonceBinding.of(APP, "webdemo-1", INSTANCE, n).reportDataHex()).isNotEqualTo(base);
        assertThat(NonceBinding.of(APP, "webdemo-1", INSTANCE, new byte[32]).statement())
                .isEqualTo("{\"app_id\":\"" + APP + "\",\"instance_id\":\"" + INSTANCE + "\",\"purpose\":\"cluster-admission\",\"slot\":\"webdemo-1\"}");
    }
}
