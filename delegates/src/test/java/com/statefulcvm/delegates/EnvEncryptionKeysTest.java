package com.statefulcvm.delegates;

import com.statefulcvm.delegates.support.EnvEncryptionKeys;
import com.statefulcvm.fleet.InstanceRegistry;
import com.statefulcvm.fleet.ReplicaSetSpec;
import org.junit.jupiter.api.Test;

import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

/** Which key an env rollout encrypts to: the fleet file's, else the one recorded when the app was created. */
class EnvEncryptionKeysTest {

    private final InstanceRegistry registry = mock(InstanceRegistry.class);
    private final EnvEncryptionKeys keys = new EnvEncryptionKeys(registry);
    private final ReplicaSetSpec spec = new ReplicaSetSpec();

    EnvEncryptionKeysTest() {
        spec.setName("webdemo");
    }

    @Test
    void theFleetFilesKeyWinsOverTheRecordedOne() {
        spec.setEnvEncryptPublicKey("aa".repeat(32));
        when(registry.envEncryptPubkey("webdemo")).thenReturn(Optional.of("bb".repeat(32)));
        assertThat(keys.publicKey(spec)).isEqualTo("aa".repeat(32));
    }

    @Test
    void withoutOneInTheFileTheRecordedKeyIsUsed() {
        when(registry.envEncryptPubkey("webdemo")).thenReturn(Optional.of("bb".repeat(32)));
        assertThat(keys.publicKey(spec)).isEqualTo("bb".repeat(32));
    }

    @Test
    void withNeitherTheFieldToSetIsNamed() {
        when(registry.envEncryptPubkey("webdemo")).thenReturn(Optional.empty());
        assertThatThrownBy(() -> keys.publicKey(spec)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("set envEncryptPublicKey in the fleet file");
    }
}
