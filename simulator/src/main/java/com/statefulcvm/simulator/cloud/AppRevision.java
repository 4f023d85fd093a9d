package com.statefulcvm.simulator.cloud;

import java.time.Instant;
import java.util.Map;

/** One compose change of one CVM of an app. */
record AppRevision(
        String revisionId,
        String appId,
        String vmUuid,
        String composeHash,
        Map<String, Object> compose,
        Instant createdAt,
        String operationType,
        String triggeredBy) {
}
