package com.statefulcvm.connectors.attestation;

/**
 * Who the CVM is: the dstack fields read from its RTMR3 event log and the TD measurements from its quote. Hex is
 * lower-case without prefix; a field is null when the evidence does not establish it (for instance every event-log
 * field when the replay does not match the quote).
 */
public record Identity(String appId, String composeHash, String instanceId, String osImageHash,
                       String keyProviderName, String keyProviderId, String keyProviderJson, String storageFs,
                       String mrtd, String rtmr0, String rtmr1, String rtmr2, String rtmr3) {

    static final Identity NONE = new Identity(null, null, null, null, null, null, null, null, null, null, null, null,
            null);
}
