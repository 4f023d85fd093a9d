package com.statefulcvm.connectors.phala;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.statefulcvm.connectors.phala.model.EnvEncryptPubkey;
import java.util.HexFormat;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The KMS signature check of an env encryption key, against dstack's own example vector. */
class EnvKeyVerifierTest {

    /** {@code @phala/dstack-sdk} 0.5.7, {@code verifyEnvEncryptPublicKey}'s documented example. */
    private static final String PUBLIC_KEY = "e33a1832c6562067ff8f844a61e51ad051f1180b66ec2551fb0251735f3ee90a";
    private static final String SIGNATURE = "8542c49081fbf4e03f62034f13fbf70630bdf256a53032e38465a27c36fd6bed"
            + "7a5e7111652004aef37f7fd92fbfc1285212c4ae6a6154203a48f5e16cad2cef00";
    private static final String APP_ID = "00".repeat(20);
    private static final String SIGNER = "0x0217610d74cbd39b6143842c6d8bc310d79da1d82cc9d17f8876376221eda0c38f";

    @Test
    void recoversTheSignerDstacksExampleNames() {
        assertThat(EnvKeyVerifier.recoverSigner(APP_ID, HexFormat.of().parseHex(PUBLIC_KEY),
                HexFormat.of().parseHex(SIGNATURE))).isEqualTo(SIGNER);
    }

    @Test
    void aKeySignedByATrustedKmsIsAccepted() {
        EnvKeyVerifier verifier = new EnvKeyVerifier(Set.of(SIGNER));

        assertThat(verifier.verified("app_" + APP_ID, new EnvEncryptPubkey(PUBLIC_KEY, "0x" + SIGNATURE))).isEqualTo(PUBLIC_KEY);
    }

    @Test
    void aKeySignedBySomeoneElseIsRefused() {
        EnvKeyVerifier verifier = new EnvKeyVerifier(Set.of("0x02" + "11".repeat(32)));

        assertThatThrownBy(() -> verifier.verified(APP_ID, new EnvEncryptPubkey(PUBLIC_KEY, SIGNATURE)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not by a trusted KMS signing key");
    }

    @Test
    void aSwappedKeyOrAnotherAppIdNoLongerRecoversTheKmsSigner() {
        EnvKeyVerifier verifier = new EnvKeyVerifier(Set.of(SIGNER));
        String otherKey = "ff" + PUBLIC_KEY.substring(2);

        assertThatThrownBy(() -> verifier.verified(APP_ID, new EnvEncryptPubkey(otherKey, SIGNATURE)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> verifier.verified("01".repeat(20), new EnvEncryptPubkey(PUBLIC_KEY, SIGNATURE)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void malformedAnswersAndNoTrustAreRefusedByName() {
        EnvKeyVerifier verifier = new EnvKeyVerifier(Set.of(SIGNER));

        assertThatThrownBy(() -> verifier.verified(APP_ID, new EnvEncryptPubkey("abcd", SIGNATURE)))
                .hasMessageContaining("not 32 bytes of hex");
        assertThatThrownBy(() -> verifier.verified(APP_ID, new EnvEncryptPubkey(PUBLIC_KEY, "abcd")))
                .hasMessageContaining("not 65 bytes of hex");
        assertThatThrownBy(() -> new EnvKeyVerifier(Set.of()).verified(APP_ID, new EnvEncryptPubkey(PUBLIC_KEY, SIGNATURE)))
                .hasMessageContaining("orchestrator.phala.kms-signers");
        assertThatThrownBy(() -> new EnvKeyVerifier(Set.of("nothex")))
                .hasMessageContaining("compressed secp256k1 public key");
    }
}
