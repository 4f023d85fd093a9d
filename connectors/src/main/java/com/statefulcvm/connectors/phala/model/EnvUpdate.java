package com.statefulcvm.connectors.phala.model;

import java.util.List;

/**
 * Full replacement of a CVM's encrypted environment (SDK {@code updateCvmEnvs}). {@code composeHash} and
 * {@code transactionHash} only in phase 2 of an on-chain KMS app whose {@code env_keys} change; null otherwise and
 * then left out of the body.
 */
public record EnvUpdate(String encryptedEnv, List<String> envKeys, String composeHash, String transactionHash) {

    public EnvUpdate(String encryptedEnv, List<String> envKeys) {
        this(encryptedEnv, envKeys, null, null);
    }

    public EnvUpdate withOnChainCommit(String newComposeHash, String newTransactionHash) {
        return new EnvUpdate(encryptedEnv, envKeys, newComposeHash, newTransactionHash);
    }
}
