package com.statefulcvm.fleet.admission;

import java.util.Set;

/**
 * What the procedure expects of the CVM in one slot.
 *
 * @param boundInstanceId     the instance_id the slot is bound to, or null for a CVM our own procedure just created
 * @param expectedReportData  hex of the nonce binding, or null where no fresh evidence could be asked for
 */
public record AdmissionRequest(String slot, String appId, Set<String> allowedComposeHashes, String boundInstanceId,
                               String expectedReportData) {

    public AdmissionRequest {
        allowedComposeHashes = Set.copyOf(allowedComposeHashes);
    }
}
