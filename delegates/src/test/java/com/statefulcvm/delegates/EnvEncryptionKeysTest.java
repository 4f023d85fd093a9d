package com.statefulcvm.delegates;

import com.statefulcvm.connectors.phala.EnvKeyTrust;
import com.statefulcvm.connectors.phala.EnvKeyVerifier;
import com.statefulcvm.connectors.phala.PhalaCloudClient;
import com.statefulcvm.connectors.phala.model.EnvEncryptPubkey;
import com.statefulcvm.delegates.support.EnvEncryptionKeys;
import com.statefulcvm.delegates.support.ReplicaSets;
import com.statefulcvm.fleet.InstanceRegistry;
import com.statefulcvm.fleet.ReplicaSetSpec;
import org.junit.jupiter.api.Test;

import java.util.Optional;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

/**
 * Which key an env rollout encrypts to: the fleet file's, else the app's KMS key once its signature checks out
 * (dstack's example vector: app id 00..00, signed by 0x0217...c38f). A key Phala answers unsigned is never used.
 */
class EnvEncryptionKeysTest {

    private static final String APP = "00".repeat(20);
    private static final String KEY = "e33a1832c6562067ff8f844a61e51ad051f1180b66ec2551fb0251735f3ee90a";
    private static final String SIGNATURE = "8542c49081fbf4e03f62034f13fbf70630bdf256a53032e38465a27c36fd6bed"
            + "7a5e7111652004aef37f7fd92fbfc1285212c4ae6a6154203a48f5e16cad2cef00";
    private static final String KMS_SIGNER = "0x0217610d74cbd39b6143842c6d8bc310d79da1d82cc9d17f8876376221eda0c38f";

    private final InstanceRegistry registry = mock(InstanceRegistry.class);
    private final ReplicaSets replicaSets = mock(ReplicaSets.class);
    private final PhalaCloudClient phala = mock(PhalaCloudClient.class);
    private final ReplicaSetSpec spec = new ReplicaSetSpec();

    EnvEncryptionKeysTest() {
        spec.setName("webdemo");
        when(replicaSets.appId(spec)).thenReturn(APP);
        when(registry.envEncryptPubkey("webdemo")).thenReturn(Optional.empty());
    }

    private EnvEncryptionKeys keys(String kms, String... signers) {
        return new EnvEncryptionKeys(registry, replicaSets, phala, new EnvKeyTrust(kms, new EnvKeyVerifier(Set.of(signers))));
    }

    @Test
    void theFleetFilesKeyWinsAndNothingIsAsked() {
        spec.setEnvEncryptPublicKey("aa".repeat(32));
        assertThat(keys("phala", KMS_SIGNER).publicKey(spec)).isEqualTo("aa".repeat(32));
        verify(phala, never()).getAppEnvEncryptPubkey(any(), any());
    }

    @Test
    void theKmsKeyIsUsedOnlyWhenItsSignatureRecoversATrustedSigner() {
        when(phala.getAppEnvEncryptPubkey("phala", APP)).thenReturn(new EnvEncryptPubkey(KEY, SIGNATURE));

        assertThat(keys("phala", KMS_SIGNER).publicKey(spec)).isEqualTo(KEY);
        assertThatThrownBy(() -> keys("phala", "0x03" + "22".repeat(32)).publicKey(spec))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("not by a trusted KMS signing key");
    }

    @Test
    void aKeyWhoseSignatureDoesNotCoverItIsRefused() {
        when(phala.getAppEnvEncryptPubkey("phala", APP)).thenReturn(new EnvEncryptPubkey("bb".repeat(32), SIGNATURE));

        assertThatThrownBy(() -> keys("phala", KMS_SIGNER).publicKey(spec)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void theUnsignedKeyRecordedAtCreationMustMatchTheSignedOne() {
        when(phala.getAppEnvEncryptPubkey("phala", APP)).thenReturn(new EnvEncryptPubkey(KEY, SIGNATURE));
        when(registry.envEncryptPubkey("webdemo")).thenReturn(Optional.of("cc".repeat(32)));

        assertThatThrownBy(() -> keys("phala", KMS_SIGNER).publicKey(spec))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("differs from the one Phala answered");
    }

    @Test
    void withoutAKmsTheFieldsToSetAreNamed() {
        assertThatThrownBy(() -> keys(null, KMS_SIGNER).publicKey(spec)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("set envEncryptPublicKey in the fleet file")
                .hasMessageContaining("orchestrator.phala.kms");
    }
}
