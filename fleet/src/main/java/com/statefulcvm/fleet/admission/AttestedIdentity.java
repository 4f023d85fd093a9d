package com.statefulcvm.fleet.admission;

import java.util.List;


/**
 * What one piece of verified evidence says about a CVM, as the admission policy needs it. {@code failedChecks} are
 * the verifier's checks that did not pass; hex values are lower-case without prefix. {@code mrtd} and {@code rtmr0..2}
 * are the TD's platform measurements (null where the verifier does not report them).
 */
public record AttestedIdentity(boolean evidenceValid, List<String> failedChecks, String appId, String composeHash,
                               String instanceId, String osImageHash, String keyProviderName, String keyProviderId,
                               String tcbStatus, String reportData, String mrtd, String rtmr0, String rtmr1, String rtmr2) {

    public AttestedIdentity {
        failedChecks = failedChecks == null ? List.of() : List.copyOf(failedChecks);
    }

    public AttestedIdentity(boolean evidenceValid, List<String> failedChecks, String appId, String composeHash,
                            String instanceId, String osImageHash, String keyProviderName, String keyProviderId,
                            String tcbStatus, String reportData) {
        this(evidenceValid, failedChecks, appId, composeHash, instanceId, osImageHash, keyProviderName, keyProviderId,
                tcbStatus, reportData, null, null, null, null);
    }
}
