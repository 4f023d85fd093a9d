package com.statefulcvm.simulator.cloud;

import java.time.Instant;
import java.util.Map;

/** One compose or env change of one CVM of an app, with the encrypted env the CVM was left with (null: none). */
record AppRevision(
        String revisionId,
        String appId,
        String vmUuid,
        String composeHash,
        Map<String, Object> compose,
        Instant createdAt,
        String operationType,
        String triggeredBy,
        String encryptedEnv) {
}
