package com.statefulcvm.connectors.phala.model;

/**
 * {@code POST /apps/{app_id}/instances} as the SDK 0.2.9 sends it ({@code CreateAppInstanceRequestSchema}, strict):
 * every field optional, {@code node_id} a number, no name (a new instance is named by the platform; the orchestrator
 * renames it to its slot). Without a compose the new instance copies the app's current one.
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
}
