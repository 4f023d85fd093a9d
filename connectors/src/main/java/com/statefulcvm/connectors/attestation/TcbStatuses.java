package com.statefulcvm.connectors.attestation;

import java.util.Set;

/**
 * Intel's TCB status names and how a platform status combines with the TDX module's and the QE's, as in Intel's
 * SGX-TDX-DCAP-QuoteVerificationLibrary ({@code convergeTcbStatusWithTdxModuleStatus},
 * {@code convergeTcbStatusWithQeTcbStatus}).
 */
final class TcbStatuses {

    static final String UP_TO_DATE = "UpToDate";
    static final String SW_HARDENING_NEEDED = "SWHardeningNeeded";
    static final String CONFIGURATION_NEEDED = "ConfigurationNeeded";
    static final String CONFIGURATION_AND_SW_HARDENING_NEEDED = "ConfigurationAndSWHardeningNeeded";
    static final String OUT_OF_DATE = "OutOfDate";
    static final String OUT_OF_DATE_CONFIGURATION_NEEDED = "OutOfDateConfigurationNeeded";
    static final String REVOKED = "Revoked";
    static final String TD_RELAUNCH_ADVISED = "TDRelaunchAdvised";
    static final String TD_RELAUNCH_ADVISED_CONFIGURATION_NEEDED = "TDRelaunchAdvisedConfigurationNeeded";

    static final Set<String> KNOWN = Set.of(UP_TO_DATE, SW_HARDENING_NEEDED, CONFIGURATION_NEEDED,
            CONFIGURATION_AND_SW_HARDENING_NEEDED, OUT_OF_DATE, OUT_OF_DATE_CONFIGURATION_NEEDED, REVOKED,
            TD_RELAUNCH_ADVISED, TD_RELAUNCH_ADVISED_CONFIGURATION_NEEDED);

    private TcbStatuses() {
    }

    /** Folds an OutOfDate or Revoked component (TDX module or QE) into the platform's status. */
    static String converge(String platform, String component) {
        if (OUT_OF_DATE.equals(component)) {
            if (UP_TO_DATE.equals(platform) || SW_HARDENING_NEEDED.equals(platform)) {
                return OUT_OF_DATE;
            }
            if (CONFIGURATION_NEEDED.equals(platform) || CONFIGURATION_AND_SW_HARDENING_NEEDED.equals(platform)) {
                return OUT_OF_DATE_CONFIGURATION_NEEDED;
            }
        }
        if (REVOKED.equals(component)) {
            return REVOKED;
        }
        return platform;
    }
}
