package com.statefulcvm.fleet;

import java.util.List;

/**
 * What one piece of verified evidence says about a CVM, as the admission policy needs it. {@code failedChecks} are
 * the verifier's checks that did not pass; hex values are lower-case without prefix.
 */
public record AttestedIdentity(boolean evidenceValid, List<String> failedChecks, String appId, String composeHash,
                               String instanceId, String osImageHash, String keyProviderName, String keyProviderId,
                               String tcbStatus, String reportData) {

    public AttestedIdentity {
        failedChecks = failedChecks == null ? List.of() : List.copyOf(failedChecks);
    }
}
