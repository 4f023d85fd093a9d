package com.statefulcvm.connectors.attestation;

import java.util.List;

/**
 * Compares the QE report with Intel's QE identity (Intel QVL {@code EnclaveReportVerifier}): MRSIGNER and ISVPRODID
 * equal, MISCSELECT and ATTRIBUTES equal under their masks, and the ISVSVN's TCB level.
 */
final class QeIdentityMatcher {

    /** {@code level} is null when the QE does not match at all. */
    record Result(Check check, TcbInfo.IsvLevel level) {
    }

    private QeIdentityMatcher() {
    }

    static Result match(QeReport report, QeIdentity identity) {
        if (!"TD_QE".equals(identity.id()) || identity.version() < 2) {
            return fail("QE identity is '" + identity.id() + "' v" + identity.version() + ", not TD_QE v2+");
        }
        if (!java.util.Arrays.equals(report.mrSigner, identity.mrSigner())) {
            return fail("QE MRSIGNER " + Bytes.hex(report.mrSigner) + " is not " + Bytes.hex(identity.mrSigner()));
        }
        if (report.isvProdId != identity.isvProdId()) {
            return fail("QE ISVPRODID " + report.isvProdId + " is not " + identity.isvProdId());
        }
        byte[] misc = Bytes.le32((int) report.miscSelect);
        if (!maskedEqual(misc, identity.miscselect(), identity.miscselectMask())) {
            return fail("QE MISCSELECT " + Bytes.hex(misc) + " does not match " + Bytes.hex(identity.miscselect())
                    + " under mask " + Bytes.hex(identity.miscselectMask()));
        }
        if (!maskedEqual(report.attributes, identity.attributes(), identity.attributesMask())) {
            return fail("QE ATTRIBUTES " + Bytes.hex(report.attributes) + " do not match "
                    + Bytes.hex(identity.attributes()) + " under mask " + Bytes.hex(identity.attributesMask()));
        }
        List<TcbInfo.IsvLevel> levels = identity.tcbLevels();
        for (TcbInfo.IsvLevel level : levels) {
            if (report.isvSvn >= level.isvSvn()) {
                boolean ok = !TcbStatuses.REVOKED.equals(level.status());
                String reason = "QE matches TD_QE identity; ISVSVN " + report.isvSvn + " is " + level.status();
                return new Result(ok ? Check.pass(CheckNames.QE_IDENTITY, reason)
                        : Check.fail(CheckNames.QE_IDENTITY, reason), level);
            }
        }
        return fail("QE ISVSVN " + report.isvSvn + " is below every TCB level of the QE identity");
    }

    private static Result fail(String reason) {
        return new Result(Check.fail(CheckNames.QE_IDENTITY, reason), null);
    }

    private static boolean maskedEqual(byte[] actual, byte[] expected, byte[] mask) {
        if (actual.length != expected.length || mask.length != expected.length) {
            return false;
        }
        for (int i = 0; i < mask.length; i++) {
            if ((actual[i] & mask[i]) != (expected[i] & mask[i])) {
                return false;
            }
        }
        return true;
    }
}
