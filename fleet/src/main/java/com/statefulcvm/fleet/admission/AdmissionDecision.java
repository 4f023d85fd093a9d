package com.statefulcvm.fleet.admission;

import java.util.List;

/**
 * The verdict on one CVM. {@code code} follows the dstack service mesh's admission errors: QUOTE_INVALID,
 * REPORT_DATA_MISMATCH, KMS_POLICY_MISMATCH, ADMISSION_REJECTED; null when admitted.
 */
public record AdmissionDecision(boolean admitted, String code, List<String> reasons) {

    public static AdmissionDecision admit() {
        return new AdmissionDecision(true, null, List.of());
    }

    public String summary() {
        return admitted ? "admitted" : code + ": " + String.join("; ", reasons);
    }
}
