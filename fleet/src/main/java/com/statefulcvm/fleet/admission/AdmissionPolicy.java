package com.statefulcvm.fleet.admission;

import com.statefulcvm.fleet.PlatformMeasurements;
import com.statefulcvm.fleet.AttestationSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Decides whether verified evidence admits a CVM into its slot. The first failing class of check decides the code,
 * in the order the dstack mesh checks them: evidence, freshness, key provider, then identity; every reason of that
 * class is listed so an operator sees the whole mismatch at once.
 */
public final class AdmissionPolicy {

    private final AttestationSpec spec;

    public AdmissionPolicy(AttestationSpec spec) {
        this.spec = spec;
    }

    public AdmissionDecision decide(AdmissionRequest request, AttestedIdentity evidence) {
        if (!evidence.evidenceValid()) {
            return rejected("QUOTE_INVALID", List.of("evidence did not verify: failed " + String.join(", ", evidence.failedChecks())));
        }
        if (request.expectedReportData() != null && !same(request.expectedReportData(), evidence.reportData())) {
            return rejected("REPORT_DATA_MISMATCH", List.of("report_data does not carry this admission's nonce binding (stale or replayed evidence)"));
        }
        List<String> kms = new ArrayList<>();
        if (!"kms".equals(evidence.keyProviderName())) {
            kms.add("key provider is '" + evidence.keyProviderName() + "', not kms");
        } else if (!spec.getKmsKeyIds().isEmpty() && spec.getKmsKeyIds().stream().noneMatch(k -> same(k, evidence.keyProviderId()))) {
            kms.add("KMS key " + abbreviate(evidence.keyProviderId()) + " is not the pinned one");
        }
        if (!kms.isEmpty()) {
            return rejected("KMS_POLICY_MISMATCH", kms);
        }
        List<String> identity = new ArrayList<>();
        if (!same(bare(request.appId()), evidence.appId())) {
            identity.add("app_id " + evidence.appId() + " is not the set's app " + bare(request.appId()));
        }
        if (request.allowedComposeHashes().stream().noneMatch(h -> same(h, evidence.composeHash()))) {
            identity.add("compose_hash " + abbreviate(evidence.composeHash()) + " is none of the composes we intend "
                    + request.allowedComposeHashes().stream().map(AdmissionPolicy::abbreviate).sorted().toList()
                    + " (re-composed behind our back?)");
        }
        if (request.boundInstanceId() != null && !same(request.boundInstanceId(), evidence.instanceId())) {
            identity.add("instance_id " + abbreviate(evidence.instanceId()) + " is not the one bound to " + request.slot()
                    + " (" + abbreviate(request.boundInstanceId()) + "); a new identity is accepted only for a CVM this orchestrator created");
        }
        if (!spec.getOsImageHashes().isEmpty() && spec.getOsImageHashes().stream().noneMatch(h -> same(h, evidence.osImageHash()))) {
            identity.add("OS image " + abbreviate(evidence.osImageHash()) + " is not allowed");
        }
        List<PlatformMeasurements> platforms = spec.getPlatforms() == null ? List.of() : spec.getPlatforms();
        if (!platforms.isEmpty() && platforms.stream().noneMatch(p -> same(p.getMrtd(), evidence.mrtd())
                && same(p.getRtmr0(), evidence.rtmr0()) && same(p.getRtmr1(), evidence.rtmr1()) && same(p.getRtmr2(), evidence.rtmr2()))) {
            identity.add("platform (MRTD " + abbreviate(evidence.mrtd()) + ", RTMR0 " + abbreviate(evidence.rtmr0()) + ", RTMR1 "
                    + abbreviate(evidence.rtmr1()) + ", RTMR2 " + abbreviate(evidence.rtmr2()) + ") is none of the set's platforms "
                    + platforms.stream().map(PlatformMeasurements::describe).toList() + ": another OS image or firmware");
        }
        if (evidence.tcbStatus() == null || !spec.getAcceptedTcbStatuses().contains(evidence.tcbStatus())) {
            identity.add("TCB status " + evidence.tcbStatus() + " is not accepted " + spec.getAcceptedTcbStatuses());
        }
        return identity.isEmpty() ? AdmissionDecision.admit() : rejected("ADMISSION_REJECTED", identity);
    }

    private static AdmissionDecision rejected(String code, List<String> reasons) {
        return new AdmissionDecision(false, code, List.copyOf(reasons));
    }

    private static boolean same(String a, String b) {
        return a != null && b != null && bare(a).equals(bare(b));
    }

    /** Hex compares case-insensitively and without the app_/0x prefixes the API and tools add. */
    static String bare(String hex) {
        if (hex == null) {
            return null;
        }
        String s = hex.toLowerCase(Locale.ROOT);
        if (s.startsWith("app_")) {
            s = s.substring(4);
        } else if (s.startsWith("0x")) {
            s = s.substring(2);
        }
        return s;
    }

    private static String abbreviate(String hex) {
        return hex == null ? "none" : hex.length() <= 16 ? hex : hex.substring(0, 16) + "…";
    }
}
