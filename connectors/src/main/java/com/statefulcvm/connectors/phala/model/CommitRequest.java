package com.statefulcvm.connectors.phala.model;

import java.util.List;

public record CommitRequest(String appId, String composeHash, String encryptedEnv, List<String> envKeys) {
}
