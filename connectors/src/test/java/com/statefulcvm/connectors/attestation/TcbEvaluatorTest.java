package com.statefulcvm.connectors.attestation;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Intel's TCB level matching on the real TCB info, with platform values moved around it. */
class TcbEvaluatorTest {

    private final Quote quote = QuoteParser.parse(AttestationVectors.dcapQuote());
    private final Collateral collateral = AttestationVectors.dcapCollateral();
    private final TcbInfo tcbInfo = TcbInfo.parse(collateral.tcbInfo());
    private final QeIdentity qeIdentity = QeIdentity.parse(collateral.qeIdentity());
    private final PckExtensions pck = pck();

    private PckExtensions pck() {
        try {
            return PckExtensions.of(CertChains.parsePem(quote.pckChainPem(), "pck").get(0));
        } catch (CertChains.ChainException e) {
            throw new AssertionError(e);
        }
    }

    private TcbInfo.IsvLevel qeUpToDate() {
        return QeIdentityMatcher.match(quote.qeReport(), qeIdentity).level();
    }

    @Test
    void theRealPlatformIsUpToDate() {
        TcbEvaluator.Result result = TcbEvaluator.evaluate(quote, pck, tcbInfo, qeUpToDate());

        assertThat(result.status()).isEqualTo("UpToDate");
        assertThat(result.check().passed()).isTrue();
        assertThat(pck.pceSvn()).isGreaterThanOrEqualTo(11);
        assertThat(Bytes.hex(pck.fmspc())).isEqualTo("b0c06f000000");
        assertThat(pck.ca()).isEqualTo("platform");
    }

    @Test
    void anOlderPceSvnFallsToTheOutOfDateLevelWithItsAdvisories() {
        PckExtensions older = new PckExtensions(pck.sgxTcbComponents(), 10, pck.pceId(), pck.fmspc(), pck.ca());

        TcbEvaluator.Result result = TcbEvaluator.evaluate(quote, older, tcbInfo, qeUpToDate());

        assertThat(result.status()).isEqualTo("OutOfDate");
        assertThat(result.check().passed()).as("OutOfDate is a status for policy, not a broken quote").isTrue();
        assertThat(result.advisoryIds()).contains("INTEL-SA-00106", "INTEL-SA-00837").hasSize(14);
    }

    @Test
    void aPlatformBelowEveryLevelIsNotSupported() {
        int[] low = new int[16];
        PckExtensions ancient = new PckExtensions(low, 0, pck.pceId(), pck.fmspc(), pck.ca());

        TcbEvaluator.Result result = TcbEvaluator.evaluate(quote, ancient, tcbInfo, qeUpToDate());

        assertThat(result.check().passed()).isFalse();
        assertThat(result.status()).isNull();
        assertThat(result.check().reason()).contains("no TCB level matches the platform's SGX TCB");
    }

    @Test
    void anOutOfDateQeMakesAnUpToDatePlatformOutOfDate() {
        TcbEvaluator.Result result = TcbEvaluator.evaluate(quote, pck, tcbInfo,
                new TcbInfo.IsvLevel(6, "OutOfDate", List.of("INTEL-SA-01234")));

        assertThat(result.status()).isEqualTo("OutOfDate");
        assertThat(result.advisoryIds()).containsExactly("INTEL-SA-01234");
    }

    @Test
    void aRevokedLevelFailsTheCheck() throws Exception {
        var tree = (com.fasterxml.jackson.databind.node.ObjectNode) AttestationJson.MAPPER.readTree(
                collateral.tcbInfo());
        ((com.fasterxml.jackson.databind.node.ObjectNode) tree.get("tcbLevels").get(0)).put("tcbStatus", "Revoked");
        TcbInfo revoked = TcbInfo.parse(tree.toString());
        assertThat(revoked.tcbLevels().get(0).status()).isEqualTo("Revoked");

        TcbEvaluator.Result result = TcbEvaluator.evaluate(quote, pck, revoked, qeUpToDate());

        assertThat(result.status()).isEqualTo("Revoked");
        assertThat(result.check().passed()).isFalse();
    }

    @Test
    void anotherFmspcOrAMissingTdxModuleIsAMismatch() {
        PckExtensions elsewhere = new PckExtensions(pck.sgxTcbComponents(), pck.pceSvn(), pck.pceId(),
                new byte[] {1, 2, 3, 4, 5, 6}, pck.ca());
        assertThat(TcbEvaluator.evaluate(quote, elsewhere, tcbInfo, null).check().reason())
                .contains("FMSPC 010203040506");

        TcbInfo noModule = TcbInfo.parse(collateral.tcbInfo().replace("\"id\":\"TDX_01\"", "\"id\":\"TDX_07\""));
        assertThat(TcbEvaluator.evaluate(quote, pck, noModule, null).check().reason())
                .contains("no TDX module identity TDX_01");
    }

    @Test
    void theQeIdentityComparesSignerProductAndSvn() {
        QeIdentity otherSigner = QeIdentity.parse(collateral.qeIdentity().replace("DC9E2A7C", "DC9E2A7D"));
        assertThat(QeIdentityMatcher.match(quote.qeReport(), otherSigner).check().reason())
                .contains("QE MRSIGNER");
        QeIdentity newer = QeIdentity.parse(collateral.qeIdentity().replace("\"isvsvn\":4", "\"isvsvn\":9"));
        QeIdentityMatcher.Result tooOld = QeIdentityMatcher.match(quote.qeReport(), newer);
        assertThat(tooOld.check().passed()).isFalse();
        assertThat(tooOld.check().reason()).contains("below every TCB level");
        QeIdentity sgx = QeIdentity.parse(collateral.qeIdentity().replace("\"TD_QE\"", "\"QE\""));
        assertThat(QeIdentityMatcher.match(quote.qeReport(), sgx).check().reason()).contains("not TD_QE");
    }

    @Test
    void tdAttributesRejectDebugAndMissingSeptVeDisable() {
        byte[] real = quote.tdReport().tdAttributes();
        assertThat(TdAttributes.check(real).passed()).isTrue();
        byte[] debug = real.clone();
        debug[0] = 1;
        assertThat(TdAttributes.check(debug).reason()).contains("debug TD");
        byte[] noSept = real.clone();
        noSept[3] = 0;
        assertThat(TdAttributes.check(noSept).reason()).contains("SEPT_VE_DISABLE");
        byte[] reserved = real.clone();
        reserved[5] = 1;
        assertThat(TdAttributes.check(reserved).reason()).contains("reserved");
    }
}
