package com.statefulcvm.connectors.phala.model;

/**
 * Answer of {@code GET /kms/{kms}/pubkey/{app_id}} (SDK {@code getAppEnvEncryptPubKey}, a strict schema of exactly
 * these two fields): the app's X25519 env encryption key and the KMS's secp256k1 signature over it, both hex.
 */
public record EnvEncryptPubkey(String publicKey, String signature) {
}
