package com.statefulcvm.delegates.support;

import com.statefulcvm.connectors.phala.EnvKeyTrust;
import com.statefulcvm.connectors.phala.PhalaApiException;
import com.statefulcvm.connectors.phala.PhalaCloudClient;
import com.statefulcvm.connectors.phala.model.EnvEncryptPubkey;
import com.statefulcvm.fleet.InstanceRegistry;
import com.statefulcvm.fleet.ReplicaSetSpec;
import org.springframework.stereotype.Component;

/**
 * The public key a set's env is encrypted to: the fleet file's {@code envEncryptPublicKey} (the operator pins it),
 * else the key the app's KMS hands out ({@code GET /kms/{kms}/pubkey/{app_id}}, SDK {@code getAppEnvEncryptPubKey}),
 * used only once its KMS signature checks out against a trusted KMS signing key ({@link
 * com.statefulcvm.connectors.phala.EnvKeyVerifier}). A key from the service without such a signature (the provision
 * answer's {@code app_env_encrypt_pubkey}) is never sealed to; when one was recorded it must match the signed one.
 */
@Component
public class EnvEncryptionKeys {

    private final InstanceRegistry registry;
    private final ReplicaSets replicaSets;
    private final PhalaCloudClient phala;
    private final EnvKeyTrust trust;

    public EnvEncryptionKeys(InstanceRegistry registry, ReplicaSets replicaSets, PhalaCloudClient phala, EnvKeyTrust trust) {
        this.registry = registry;
        this.replicaSets = replicaSets;
        this.phala = phala;
        this.trust = trust;
    }

    /** @throws IllegalStateException saying what is missing or wrong, before anything is sealed */
    public String publicKey(ReplicaSetSpec spec) {
        if (spec.getEnvEncryptPublicKey() != null && !spec.getEnvEncryptPublicKey().isBlank()) {
            return spec.getEnvEncryptPublicKey();
        }
        String set = spec.getName();
        if (trust.kms() == null) {
            throw new IllegalStateException("envs: replica set '" + set + "' has no env encryption public key: set "
                    + "envEncryptPublicKey in the fleet file, or orchestrator.phala.kms (and kms-signers) so that the "
                    + "app's key is read from its KMS and checked");
        }
        String appId = replicaSets.appId(spec);
        EnvEncryptPubkey answer;
        try {
            answer = phala.getAppEnvEncryptPubkey(trust.kms(), appId);
        } catch (PhalaApiException e) {
            throw new IllegalStateException("envs: the env encryption key of replica set '" + set
                    + "' could not be read from KMS " + trust.kms() + ": " + e.getMessage(), e);
        }
        String verified;
        try {
            verified = trust.verifier().verified(appId, answer);
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("envs: replica set '" + set + "': " + e.getMessage(), e);
        }
        registry.envEncryptPubkey(set).filter(recorded -> !recorded.isBlank())
                .filter(recorded -> !strip(recorded).equalsIgnoreCase(verified))
                .ifPresent(recorded -> {
                    throw new IllegalStateException("envs: replica set '" + set + "': the KMS-signed env encryption key "
                            + verified + " differs from the one Phala answered when the app was created (" + recorded + ")");
                });
        return verified;
    }

    private static String strip(String hex) {
        return hex.startsWith("0x") ? hex.substring(2) : hex;
    }
}
