package com.statefulcvm.simulator.cloud;

import java.time.Instant;
import java.util.List;

/** An app and its CVMs (oldest first; the first is the app's {@code current_cvm}) at one moment. */
public record AppSnapshot(String appId, String name, String kmsType, Instant createdAt, String envPubkey,
        List<CvmSnapshot> cvms) {

    public AppSnapshot {
        cvms = List.copyOf(cvms);
    }

    /** {@code app_} + the 40-hex app_id: the app's own {@code id}. */
    public String id() {
        return "app_" + appId;
    }

    public CvmSnapshot currentCvm() {
        return cvms.isEmpty() ? null : cvms.get(0);
    }
}
