package com.statefulcvm.connectors.phala.model;

import java.util.List;

/** {@code POST /cvms} (SDK {@code commitCvmProvision}): commits a provision, creating the app's first CVM. */
public record CommitRequest(String appId, String composeHash, String encryptedEnv, List<String> envKeys) {
}
