package com.statefulcvm.connectors.attestation;

import static com.statefulcvm.connectors.attestation.AttestationVectors.IN_WINDOW;
import static com.statefulcvm.connectors.attestation.AttestationVectors.TODAY;
import static com.statefulcvm.connectors.attestation.VerdictAssertions.assertFailed;
import static com.statefulcvm.connectors.attestation.VerdictAssertions.assertPassed;
import static com.statefulcvm.connectors.attestation.VerdictAssertions.failedNames;
import static org.assertj.core.api.Assertions.assertThat;

import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** The raw DCAP quote from dcap-qvl's samples with its collateral: Intel's crypto, collateral and TCB rules. */
class LocalTdxVerifierDcapTest {

    private final LocalTdxVerifier verifier = new LocalTdxVerifier();
    private final byte[] quote = AttestationVectors.dcapQuote();
    private final Collateral collateral = AttestationVectors.dcapCollateral();

    private static VerifyOptions at(Instant at) {
        return VerifyOptions.at(at).withRequireEventLog(false);
    }

    private Verdict verify(byte[] quoteBytes, Collateral coll, VerifyOptions options) {
        return verifier.verify(new Evidence(quoteBytes, null, null, coll), options);
    }

    @Test
    void verifiesInsideTheCollateralWindowAsUpToDate() {
        Verdict verdict = verify(quote, collateral, at(IN_WINDOW));

        assertThat(verdict.valid()).as("%s", verdict.failedChecks()).isTrue();
        assertThat(verdict.tcbStatus()).isEqualTo("UpToDate");
        assertThat(verdict.advisoryIds()).isEmpty();
        assertPassed(verdict, CheckNames.QUOTE_FORMAT, CheckNames.QUOTE_SIGNATURE, CheckNames.QE_REPORT_SIGNATURE,
                CheckNames.QE_REPORT_BINDING, CheckNames.PCK_CHAIN, CheckNames.COLLATERAL_SIGNATURES,
                CheckNames.COLLATERAL_WINDOW, CheckNames.TCB_STATUS, CheckNames.QE_IDENTITY, CheckNames.TD_ATTRIBUTES);
        assertThat(VerdictAssertions.check(verdict, CheckNames.PCK_CHAIN).reason()).contains("not revoked by 2 CRLs");
        assertThat(verdict.checks()).extracting(Check::name).containsExactlyElementsOf(CheckNames.LOCAL);
        assertThat(verdict.reportData()).hasSize(128).isLowerCase();
        assertThat(verdict.identity().mrtd()).isEqualTo(Bytes.hex(java.util.Arrays.copyOfRange(quote, 184, 232)));
        assertThat(verdict.identity().composeHash()).isNull();
    }

    @Test
    void reportsExpiredCollateralAtTodaysDate() {
        Verdict verdict = verify(quote, collateral, at(TODAY));

        assertThat(verdict.valid()).isFalse();
        assertFailed(verdict, CheckNames.COLLATERAL_WINDOW, "collateral expired");
        assertThat(VerdictAssertions.check(verdict, CheckNames.COLLATERAL_WINDOW).reason())
                .contains("TCB info nextUpdate 2025-07-19T10:16:03Z");
        assertThat(failedNames(verdict)).containsOnly(CheckNames.COLLATERAL_WINDOW, CheckNames.EVENT_LOG_RTMR3,
                CheckNames.EVENT_LOG_IDENTITY);
    }

    @Test
    void reportsCollateralNotYetValidBeforeItsIssueDate() {
        Verdict verdict = verify(quote, collateral, at(Instant.parse("2025-06-19T10:10:00Z")));

        assertThat(verdict.valid()).isFalse();
        assertFailed(verdict, CheckNames.COLLATERAL_WINDOW, "not yet valid");
    }

    @ParameterizedTest(name = "quote byte {0}")
    @ValueSource(ints = {QuoteSurgery.BODY, QuoteSurgery.MRTD, QuoteSurgery.RTMR3 + 47, QuoteSurgery.REPORT_DATA,
            QuoteSurgery.SIGNED_END_V4 - 1, 10})
    void rejectsAFlippedByteOfTheSignedQuoteOnTheQuoteSignature(int offset) {
        Verdict verdict = verify(QuoteSurgery.flip(quote, offset), collateral, at(IN_WINDOW));

        assertThat(verdict.valid()).isFalse();
        assertFailed(verdict, CheckNames.QUOTE_SIGNATURE, "does not verify");
        assertPassed(verdict, CheckNames.QE_REPORT_SIGNATURE, CheckNames.QE_REPORT_BINDING, CheckNames.PCK_CHAIN);
    }

    @Test
    void rejectsAFlippedQeReportByteOnTheQeReportSignature() {
        int qeReportOffset = 632 + 4 + 64 + 64 + 6;
        Verdict verdict = verify(QuoteSurgery.flip(quote, qeReportOffset + 300), collateral, at(IN_WINDOW));

        assertThat(verdict.valid()).isFalse();
        assertFailed(verdict, CheckNames.QE_REPORT_SIGNATURE, "does not verify");
        assertPassed(verdict, CheckNames.QUOTE_SIGNATURE);
    }

    @Test
    void rejectsAnAttestationKeyTheQeDidNotVouchFor() throws Exception {
        Verdict verdict = verify(QuoteSurgery.resignWithFreshKey(quote), collateral, at(IN_WINDOW));

        assertThat(verdict.valid()).isFalse();
        assertPassed(verdict, CheckNames.QUOTE_SIGNATURE, CheckNames.QE_REPORT_SIGNATURE);
        assertFailed(verdict, CheckNames.QE_REPORT_BINDING, "does not bind the attestation key");
    }

    @Test
    void signsAndChecksTheV5SignedRegion() throws Exception {
        byte[] v5 = QuoteSurgery.resignWithFreshKey(QuoteSurgery.toV5(quote, true, new byte[16], new byte[48]));

        Verdict verdict = verify(v5, collateral, at(IN_WINDOW));

        assertPassed(verdict, CheckNames.QUOTE_FORMAT, CheckNames.QUOTE_SIGNATURE, CheckNames.QE_REPORT_SIGNATURE);
        assertThat(VerdictAssertions.check(verdict, CheckNames.QUOTE_FORMAT).reason()).contains("v5, TD report 1.5");
        assertFailed(verdict, CheckNames.QE_REPORT_BINDING, "does not bind the attestation key");
        assertThat(verdict.valid()).isFalse();
        assertFailed(verify(QuoteSurgery.flip(v5, 48 + 6 + 640), collateral, at(IN_WINDOW)),
                CheckNames.QUOTE_SIGNATURE, "does not verify");
    }

    @Test
    void rejectsAPckChainCutBelowTheRoot() {
        String[] pems = QuoteSurgery.pemBlocks(QuoteParser.parse(quote).pckChainPem());
        byte[] leafOnly = QuoteSurgery.withPckChain(quote, pems[0] + "\n");
        byte[] leafAndRoot = QuoteSurgery.withPckChain(quote, pems[0] + "\n" + pems[2] + "\n");

        for (byte[] cut : List.of(leafOnly, leafAndRoot)) {
            Verdict verdict = verify(cut, collateral, at(IN_WINDOW));
            assertThat(verdict.valid()).isFalse();
            assertFailed(verdict, CheckNames.PCK_CHAIN, "PCK certificate chain");
            assertPassed(verdict, CheckNames.QUOTE_SIGNATURE, CheckNames.QE_REPORT_SIGNATURE);
        }
        assertThat(QuoteSurgery.withPckChain(quote, pems[0] + "\n" + pems[1] + "\n" + pems[2] + "\n"))
                .as("re-assembling the untouched chain must give a verifying quote")
                .satisfies(q -> assertThat(verify(q, collateral, at(IN_WINDOW)).valid()).isTrue());
    }

    @Test
    void rejectsAWrongTrustAnchor() throws Exception {
        X509Certificate tcbSigning = CertChains.parsePem(collateral.tcbInfoIssuerChain(), "t").get(0);

        Verdict verdict = verify(quote, collateral, at(IN_WINDOW).withTrustAnchors(List.of(tcbSigning)));

        assertThat(verdict.valid()).isFalse();
        assertFailed(verdict, CheckNames.PCK_CHAIN, "does not chain to a trust anchor");
        assertPassed(verdict, CheckNames.QUOTE_SIGNATURE, CheckNames.QE_REPORT_SIGNATURE);
    }

    @Test
    void rejectsAPckChainOutsideItsValidity() {
        Verdict verdict = verify(quote, collateral, at(Instant.parse("2033-06-01T00:00:00Z")));

        assertFailed(verdict, CheckNames.PCK_CHAIN, "is not valid at");
    }

    @Test
    void rejectsATcbInfoThatIsNotWhatIntelSigned() {
        Collateral forged = withTcbInfo(collateral.tcbInfo().replace("\"tcbEvaluationDataNumber\":17",
                "\"tcbEvaluationDataNumber\":18"));

        Verdict verdict = verify(quote, forged, at(IN_WINDOW));

        assertThat(verdict.valid()).isFalse();
        assertFailed(verdict, CheckNames.COLLATERAL_SIGNATURES, "TCB info signature does not verify");
        assertFailed(verdict, CheckNames.TCB_STATUS, "no trusted TCB info");
        assertThat(verdict.tcbStatus()).isNull();
        assertPassed(verdict, CheckNames.QE_IDENTITY);
    }

    @Test
    void rejectsAQeIdentityThatIsNotWhatIntelSigned() {
        Collateral forged = new Collateral(collateral.tcbInfo(), collateral.tcbInfoSignature(),
                collateral.tcbInfoIssuerChain(), collateral.qeIdentity().replace("\"isvprodid\":2", "\"isvprodid\":3"),
                collateral.qeIdentitySignature(), collateral.qeIdentityIssuerChain(), collateral.pckCrl(),
                collateral.rootCaCrl(), collateral.pckCrlIssuerChain());

        Verdict verdict = verify(quote, forged, at(IN_WINDOW));

        assertFailed(verdict, CheckNames.COLLATERAL_SIGNATURES, "QE identity signature does not verify");
        assertFailed(verdict, CheckNames.QE_IDENTITY, "no trusted QE identity");
    }

    @Test
    void rejectsCrlsSwappedAround() {
        Collateral swapped = new Collateral(collateral.tcbInfo(), collateral.tcbInfoSignature(),
                collateral.tcbInfoIssuerChain(), collateral.qeIdentity(), collateral.qeIdentitySignature(),
                collateral.qeIdentityIssuerChain(), collateral.rootCaCrl(), collateral.pckCrl(),
                collateral.pckCrlIssuerChain());

        Verdict verdict = verify(quote, swapped, at(IN_WINDOW));

        assertThat(verdict.valid()).isFalse();
        assertFailed(verdict, CheckNames.COLLATERAL_SIGNATURES, "PCK CRL is issued by");
    }

    @Test
    void withoutCollateralTheCollateralChecksFailAndTheVerdictIsInvalid() {
        Verdict verdict = verify(quote, null, at(IN_WINDOW));

        assertThat(verdict.valid()).isFalse();
        for (String name : CheckNames.COLLATERAL) {
            assertFailed(verdict, name, "no collateral");
        }
        assertThat(verdict.tcbStatus()).isNull();
        assertThat(VerdictAssertions.check(verdict, CheckNames.PCK_CHAIN).reason())
                .contains("revocation not checked");
    }

    @Test
    void collateralMayBeDeclaredOptional() {
        Verdict verdict = verify(quote, null, at(IN_WINDOW).withRequireCollateral(false));

        assertThat(verdict.valid()).isTrue();
        assertFailed(verdict, CheckNames.TCB_STATUS, "no collateral");
    }

    @Test
    void optionalCollateralThatIsPresentStillCounts() {
        Verdict verdict = verify(quote, collateral, at(TODAY).withRequireCollateral(false));

        assertThat(verdict.valid()).isFalse();
        assertFailed(verdict, CheckNames.COLLATERAL_WINDOW, "collateral expired");
    }

    @Test
    void fetchesCollateralFromTheConfiguredSourceWhenTheEvidenceHasNone() {
        AtomicReference<Quote> asked = new AtomicReference<>();
        CollateralSource source = q -> {
            asked.set(q);
            return Optional.of(collateral);
        };

        Verdict verdict = verify(quote, null, at(IN_WINDOW).withCollateralSource(source));

        assertThat(verdict.valid()).isTrue();
        assertThat(asked.get().tdReport().rtmr3()).isEqualTo(QuoteParser.parse(quote).tdReport().rtmr3());
    }

    @Test
    void reportsAFailingCollateralSource() {
        CollateralSource source = q -> {
            throw new CollateralFetchException("PCCS GET http://pccs/tcb answered HTTP 503");
        };

        Verdict verdict = verify(quote, null, at(IN_WINDOW).withCollateralSource(source));

        assertThat(verdict.valid()).isFalse();
        assertFailed(verdict, CheckNames.TCB_STATUS, "HTTP 503");
    }

    @Test
    void anUnreadableQuoteFailsEveryCheck() {
        Verdict verdict = verify(new byte[] {4, 0, 2, 0}, collateral, at(IN_WINDOW));

        assertThat(verdict.valid()).isFalse();
        assertThat(verdict.checks()).extracting(Check::name).containsExactlyElementsOf(CheckNames.LOCAL);
        assertThat(verdict.checks()).noneMatch(Check::passed);
        assertFailed(verdict, CheckNames.QUOTE_FORMAT, "needs");
        assertThat(verdict.reportData()).isNull();
    }

    @Test
    void aQuoteWithoutEventLogIsInvalidUnlessTheOptionsAllowIt() {
        Verdict verdict = verify(quote, collateral, VerifyOptions.at(IN_WINDOW));

        assertThat(verdict.valid()).isFalse();
        assertFailed(verdict, CheckNames.EVENT_LOG_RTMR3, "no event log");
    }

    private Collateral withTcbInfo(String tcbInfo) {
        return new Collateral(tcbInfo, collateral.tcbInfoSignature(), collateral.tcbInfoIssuerChain(),
                collateral.qeIdentity(), collateral.qeIdentitySignature(), collateral.qeIdentityIssuerChain(),
                collateral.pckCrl(), collateral.rootCaCrl(), collateral.pckCrlIssuerChain());
    }
}
