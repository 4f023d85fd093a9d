package com.statefulcvm.delegates.support;

import com.statefulcvm.fleet.InstanceRegistry;
import com.statefulcvm.fleet.ReplicaSetSpec;
import org.springframework.stereotype.Component;

/**
 * The public key a set's env is encrypted to: the fleet file's {@code envEncryptPublicKey}, else the
 * {@code app_env_encrypt_pubkey} Phala answered when this deployment created the app.
 */
@Component
public class EnvEncryptionKeys {

    private final InstanceRegistry registry;

    public EnvEncryptionKeys(InstanceRegistry registry) {
        this.registry = registry;
    }

    /** @throws IllegalStateException when neither is known, saying where to put the key */
    public String publicKey(ReplicaSetSpec spec) {
        if (spec.getEnvEncryptPublicKey() != null && !spec.getEnvEncryptPublicKey().isBlank()) {
            return spec.getEnvEncryptPublicKey();
        }
        return registry.envEncryptPubkey(spec.getName()).filter(key -> !key.isBlank()).orElseThrow(() -> new IllegalStateException(
                "envs: replica set '" + spec.getName() + "' has no env encryption public key: this deployment did not create "
                        + "its app; set envEncryptPublicKey in the fleet file (the app's key, as the Phala dashboard or "
                        + "'phala cvms get' shows it)"));
    }
}
