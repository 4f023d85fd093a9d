package com.statefulcvm.simulator.cloud;

import java.time.Instant;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * One compose change of one CVM of an app. {@code cvm} is the CVM it was made on, or null once that CVM is gone;
 * {@code encryptedEnv} the env it was deployed with (hex, as sent; null: none).
 */
public record RevisionSnapshot(
        String revisionId,
        String appId,
        String vmUuid,
        String composeHash,
        Map<String, Object> compose,
        Instant createdAt,
        String operationType,
        String triggeredBy,
        CvmSnapshot cvm,
        String encryptedEnv) {

    public RevisionSnapshot {
        compose = Collections.unmodifiableMap(new TreeMap<>(compose));
    }
}
