package com.statefulcvm.connectors.attestation;

import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Finds the platform's TCB status the way Intel's QVL does for TDX ({@code TcbLevelCheck}, {@code TdxModuleCheck}):
 * the first TCB level whose SGX components and PCESVN the PCK certificate meets, then the first at or below the
 * quote's TEE_TCB_SVN (bytes 2..15 when the TDX module version byte is set, since bytes 0..1 then belong to the
 * module identity), then the TDX module's and the QE's status folded in.
 */
final class TcbEvaluator {

    record Result(Check check, String status, List<String> advisoryIds) {
    }

    private TcbEvaluator() {
    }

    static Result evaluate(Quote quote, PckExtensions pck, TcbInfo info, TcbInfo.IsvLevel qeLevel) {
        if (!"TDX".equals(info.id()) || info.version() < 3) {
            return fail("TCB info is '" + info.id() + "' v" + info.version() + ", not TDX v3+");
        }
        if (!Arrays.equals(pck.fmspc(), info.fmspc())) {
            return fail("FMSPC " + Bytes.hex(pck.fmspc()) + " of the PCK certificate is not the TCB info's "
                    + Bytes.hex(info.fmspc()));
        }
        if (!Arrays.equals(pck.pceId(), info.pceId())) {
            return fail("PCE-ID " + Bytes.hex(pck.pceId()) + " of the PCK certificate is not the TCB info's "
                    + Bytes.hex(info.pceId()));
        }
        TdReport report = quote.tdReport;
        int moduleVersion = report.teeTcbSvn[1] & 0xff;
        int moduleSvn = report.teeTcbSvn[0] & 0xff;
        TcbInfo.ModuleIdentity module = info.tdxModule();
        if (moduleVersion > 0) {
            String wanted = String.format("TDX_%02X", moduleVersion);
            module = info.tdxModuleIdentities().stream()
                    .filter(m -> m.id() != null && m.id().equalsIgnoreCase(wanted)).findFirst().orElse(null);
            if (module == null) {
                return fail("TCB info has no TDX module identity " + wanted);
            }
        }
        if (module == null) {
            return fail("TCB info has no TDX module");
        }
        if (!Arrays.equals(report.mrSignerSeam, module.mrSigner())) {
            return fail("MRSIGNERSEAM " + Bytes.hex(report.mrSignerSeam) + " is not the TDX module signer "
                    + Bytes.hex(module.mrSigner()));
        }
        if (!Bytes.isZero(report.seamAttributes) || !Arrays.equals(report.seamAttributes, module.attributes())) {
            return fail("SEAMATTRIBUTES " + Bytes.hex(report.seamAttributes) + " are not the TDX module's "
                    + Bytes.hex(module.attributes()));
        }

        TcbInfo.TcbLevel sgxLevel = null;
        TcbInfo.TcbLevel tdxLevel = null;
        for (TcbInfo.TcbLevel level : info.tcbLevels()) {
            if (atLeast(pck.sgxTcbComponents(), level.sgxComponents(), 0) && pck.pceSvn() >= level.pceSvn()) {
                if (sgxLevel == null) {
                    sgxLevel = level;
                }
                if (atLeast(report.teeTcbSvn, level.tdxComponents(), moduleVersion > 0 ? 2 : 0)) {
                    tdxLevel = level;
                    break;
                }
            }
        }
        if (sgxLevel == null) {
            return fail("no TCB level matches the platform's SGX TCB (components "
                    + Arrays.toString(pck.sgxTcbComponents()) + ", PCESVN " + pck.pceSvn() + ")");
        }
        if (tdxLevel == null) {
            return fail("no TCB level matches the quote's TEE_TCB_SVN " + Bytes.hex(report.teeTcbSvn));
        }
        Set<String> advisories = new LinkedHashSet<>(tdxLevel.advisoryIds());
        String status = tdxLevel.status();
        if (moduleVersion > 0) {
            TcbInfo.IsvLevel moduleLevel = module.tcbLevels().stream().filter(l -> moduleSvn >= l.isvSvn())
                    .findFirst().orElse(null);
            if (moduleLevel == null) {
                return fail("TDX module " + module.id() + " SVN " + moduleSvn + " is below every level");
            }
            status = TcbStatuses.converge(status, moduleLevel.status());
            advisories.addAll(moduleLevel.advisoryIds());
        }
        if (qeLevel != null) {
            status = TcbStatuses.converge(status, qeLevel.status());
            advisories.addAll(qeLevel.advisoryIds());
        }
        List<String> ids = List.copyOf(advisories);
        String detail = "TCB level " + tdxLevel.status() + " (" + tdxLevel.advisoryIds().size()
                + " advisories)" + (moduleVersion > 0 ? ", TDX module " + module.id() + " SVN " + moduleSvn : "")
                + (qeLevel != null ? ", QE " + qeLevel.status() : ", QE status unknown");
        if (!TcbStatuses.KNOWN.contains(status)) {
            return new Result(Check.fail(CheckNames.TCB_STATUS, "unrecognised TCB status '" + status + "'"), status,
                    ids);
        }
        if (TcbStatuses.REVOKED.equals(status)) {
            return new Result(Check.fail(CheckNames.TCB_STATUS, "TCB is Revoked: " + detail), status, ids);
        }
        return new Result(Check.pass(CheckNames.TCB_STATUS, status + ": " + detail), status, ids);
    }

    private static boolean atLeast(int[] actual, int[] required, int from) {
        if (required.length < 16 || actual.length < 16) {
            return false;
        }
        for (int i = from; i < 16; i++) {
            if (actual[i] < required[i]) {
                return false;
            }
        }
        return true;
    }

    private static boolean atLeast(byte[] actual, int[] required, int from) {
        int[] values = new int[actual.length];
        for (int i = 0; i < actual.length; i++) {
            values[i] = actual[i] & 0xff;
        }
        return atLeast(values, required, from);
    }

    private static Result fail(String reason) {
        return new Result(Check.fail(CheckNames.TCB_STATUS, reason), null, List.of());
    }
}
