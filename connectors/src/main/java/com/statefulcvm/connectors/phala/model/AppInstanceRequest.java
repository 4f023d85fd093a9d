package com.statefulcvm.connectors.phala.model;

/** Every field is optional: without compose the new instance copies the app's template. */
public record AppInstanceRequest(
        String name,
        String nodeId,
        String dockerComposeFile,
        String preLaunchScript,
        String encryptedEnv,
        String composeHash) {
}
