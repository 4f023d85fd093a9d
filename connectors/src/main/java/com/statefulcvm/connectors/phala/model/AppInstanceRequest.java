package com.statefulcvm.connectors.phala.model;

/**
 * {@code POST /apps/{app_id}/instances} as the SDK 0.2.9 sends it ({@code CreateAppInstanceRequestSchema}, strict):
 * every field optional, {@code node_id} a number, no name (a new instance is named by the platform; the orchestrator
 * renames it to its slot). Without a compose the new instance copies the app's current one. An on-chain KMS app
 * answers the create with 465; {@link #committing} is its phase 2.
 */
public record AppInstanceRequest(
        Long nodeId,
        String dockerComposeFile,
        String preLaunchScript,
        String encryptedEnv,
        String composeHash,
        String token,
        String transactionHash) {

    public static AppInstanceRequest onNode(Long nodeId) {
        return new AppInstanceRequest(nodeId, null, null, null, null, null, null);
    }

    public static AppInstanceRequest of(Long nodeId, String dockerComposeFile, String encryptedEnv) {
        return new AppInstanceRequest(nodeId, dockerComposeFile, null, encryptedEnv, null, null, null);
    }

    /**
     * Phase 2 of this create after a 465: with the 465's token, {@code {token, compose_hash, transaction_hash}} alone,
     * as the CLI phala 1.1.18 commits a prepared instance ({@code instances add --commit}); without one, this request
     * again with the two hashes (the SDK's schema takes them next to the rest).
     */
    public AppInstanceRequest committing(String commitToken, String registeredComposeHash, String transaction) {
        if (commitToken != null) {
            return new AppInstanceRequest(null, null, null, null, registeredComposeHash, commitToken, transaction);
        }
        return new AppInstanceRequest(nodeId, dockerComposeFile, preLaunchScript, encryptedEnv, registeredComposeHash,
                null, transaction);
    }
}
