package com.statefulcvm.fleet;

import java.util.List;
import java.util.Optional;

/** Our own record of every slot of every replica set; stored next to the engine's tables. */
public interface InstanceRegistry {

    /** Every known slot of the set, by ordinal. */
    List<InstanceRecord> instances(String replicaSet);

    Optional<InstanceRecord> instance(String replicaSet, int ordinal);

    void save(InstanceRecord record);

    /** Forgets a slot that no longer exists (a surge slot after its CVM was deleted). */
    void forget(String replicaSet, int ordinal);

    /** The Phala app of a set that this deployment created itself (sets with an appId in the fleet file need none). */
    Optional<String> createdAppId(String replicaSet);

    void saveCreatedAppId(String replicaSet, String appId);

    /**
     * The env encryption public key Phala answered when this deployment created the set's app
     * ({@code app_env_encrypt_pubkey}): what env rollouts encrypt to. Public, not a secret.
     */
    Optional<String> envEncryptPubkey(String replicaSet);

    void saveEnvEncryptPubkey(String replicaSet, String pubkey);
}
