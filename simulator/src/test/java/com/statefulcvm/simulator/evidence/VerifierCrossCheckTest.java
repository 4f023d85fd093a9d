package com.statefulcvm.simulator.evidence;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.statefulcvm.connectors.attestation.Check;
import com.statefulcvm.connectors.attestation.CheckNames;
import com.statefulcvm.connectors.attestation.Collateral;
import com.statefulcvm.connectors.attestation.CollateralSource;
import com.statefulcvm.connectors.attestation.Evidence;
import com.statefulcvm.connectors.attestation.IntelRootCa;
import com.statefulcvm.connectors.attestation.LocalTdxVerifier;
import com.statefulcvm.connectors.attestation.Verdict;
import com.statefulcvm.connectors.attestation.VerifyOptions;

/**
 * The simulator's evidence judged by the orchestrator's own {@link LocalTdxVerifier}, with collateral handed over
 * in-process (the HTTP path through the simulated PCCS is {@code SimulatedEvidenceHttpTest}).
 */
class VerifierCrossCheckTest {

    static final AttestedCvm CVM = SyntheticQuoteStructureTest.CVM;
    static final byte[] REPORT_DATA = HexFormat.of().parseHex("00112233445566778899aabbccddeeff");

    static SimulatedTdxAuthority authority;
    static SimulatedCollateral collateral;
    static SyntheticQuote.AttestationKey key;
    final LocalTdxVerifier verifier = new LocalTdxVerifier();

    @BeforeAll
    static void authority() {
        authority = new SimulatedTdxAuthority();
        collateral = new SimulatedCollateral(authority);
        key = SyntheticQuote.newAttestationKey(authority);
    }

    /** The collateral a PCCS client would assemble from the simulated PCCS, built without HTTP. */
    static Collateral collateral(Instant now) {
        SimulatedCollateral.Signed tcb = collateral.tcbInfo(now);
        SimulatedCollateral.Signed qe = collateral.qeIdentity(now);
        HexFormat hex = HexFormat.of();
        return new Collateral(tcb.json(), tcb.signatureHex(), authority.tcbSigningChainPem(), qe.json(),
                qe.signatureHex(), authority.tcbSigningChainPem(), hex.formatHex(authority.pckCrl()),
                hex.formatHex(authority.rootCaCrl()), authority.pckCrlIssuerChainPem());
    }

    static Evidence evidence(EvidenceTamper tamper) {
        CvmMeasurements m = CvmMeasurements.of(CVM, tamper);
        byte[] quote = SyntheticQuote.build(m, EvidenceBytes.padded(REPORT_DATA, 64), key, tamper.breaksSignature());
        return new Evidence(quote, m.eventLog().toJson(), null, null);
    }

    private Verdict verify(EvidenceTamper tamper, Instant at) {
        CollateralSource source = quote -> Optional.of(collateral(Instant.now()));
        return verifier.verify(evidence(tamper), new VerifyOptions(at, List.of(authority.rootCertificate()), source));
    }

    static List<String> failed(Verdict verdict) {
        return verdict.failedChecks().stream().map(Check::name).toList();
    }

    /**
     * Two simulators started with one {@code simulator.authority-seed} (a standalone one, and the one embedded in an
     * orchestrator node of the chaos tests) share their root certificate: evidence of one verifies against the other's
     * root, though each made its own platform certificates. Without a seed, they do not.
     */
    @Test
    void seededAuthoritiesShareTheirTrustAnchorAndUnseededOnesDoNot() {
        SimulatedTdxAuthority standalone = new SimulatedTdxAuthority(java.time.Clock.systemUTC(), "chaos-seed");
        SimulatedTdxAuthority embedded = new SimulatedTdxAuthority(java.time.Clock.offset(java.time.Clock.systemUTC(),
                Duration.ofMinutes(3)), "chaos-seed");
        assertThat(embedded.rootCertificate()).as("the same certificate, byte for byte").isEqualTo(standalone.rootCertificate());
        assertThat(embedded.pckChain().get(0)).as("each its own platform").isNotEqualTo(standalone.pckChain().get(0));

        SimulatedCollateral standaloneCollateral = new SimulatedCollateral(standalone);
        SyntheticQuote.AttestationKey standaloneKey = SyntheticQuote.newAttestationKey(standalone);
        CvmMeasurements m = CvmMeasurements.of(CVM, EvidenceTamper.NONE);
        Evidence evidence = new Evidence(SyntheticQuote.build(m, EvidenceBytes.padded(REPORT_DATA, 64), standaloneKey, false),
                m.eventLog().toJson(), null, null);
        Instant now = Instant.now();
        SimulatedCollateral.Signed tcb = standaloneCollateral.tcbInfo(now);
        SimulatedCollateral.Signed qe = standaloneCollateral.qeIdentity(now);
        HexFormat hex = HexFormat.of();
        Collateral served = new Collateral(tcb.json(), tcb.signatureHex(), standalone.tcbSigningChainPem(), qe.json(),
                qe.signatureHex(), standalone.tcbSigningChainPem(), hex.formatHex(standalone.pckCrl()),
                hex.formatHex(standalone.rootCaCrl()), standalone.pckCrlIssuerChainPem());
        CollateralSource source = quote -> Optional.of(served);

        Verdict trusted = verifier.verify(evidence, new VerifyOptions(now, List.of(embedded.rootCertificate()), source));
        assertThat(trusted.valid()).as(trusted.checks().toString()).isTrue();
        Verdict stranger = verifier.verify(evidence, new VerifyOptions(now, List.of(new SimulatedTdxAuthority().rootCertificate()), source));
        assertThat(stranger.valid()).isFalse();
    }

    @Test
    void honestEvidenceIsValidAndUpToDate() {
        Verdict verdict = verify(EvidenceTamper.NONE, Instant.now());
        assertThat(verdict.checks()).as(verdict.checks().toString()).allMatch(Check::passed);
        assertThat(verdict.checks()).extracting(Check::name).containsExactlyElementsOf(CheckNames.LOCAL);
        assertThat(verdict.valid()).isTrue();
        assertThat(verdict.tcbStatus()).isEqualTo("UpToDate");
        assertThat(verdict.advisoryIds()).isEmpty();
        assertThat(verdict.reportData()).startsWith("00112233445566778899aabbccddeeff").hasSize(128);
        assertThat(verdict.identity().appId()).isEqualTo(CVM.appId());
        assertThat(verdict.identity().composeHash()).isEqualTo(CVM.composeHash());
        assertThat(verdict.identity().instanceId()).isEqualTo(CVM.instanceId());
        assertThat(verdict.identity().osImageHash()).isEqualTo(CVM.osImageHash());
        assertThat(verdict.identity().keyProviderName()).isEqualTo("kms");
        assertThat(verdict.identity().keyProviderId()).isEqualTo(DstackEventLog.kmsPublicKey());
        assertThat(verdict.identity().storageFs()).isEqualTo("zfs");
    }

    @Test
    void composeHashAndAppIdTampersPassTheVerifierWithAnotherIdentity() {
        Verdict compose = verify(EvidenceTamper.COMPOSE_HASH, Instant.now());
        assertThat(compose.valid()).as(compose.failedChecks().toString()).isTrue();
        assertThat(compose.identity().composeHash()).isNotEqualTo(CVM.composeHash())
                .isEqualTo(EvidenceTamper.COMPOSE_HASH.claimed(CVM).composeHash());
        assertThat(compose.identity().appId()).isEqualTo(CVM.appId());

        Verdict app = verify(EvidenceTamper.APP_ID, Instant.now());
        assertThat(app.valid()).as(app.failedChecks().toString()).isTrue();
        assertThat(app.identity().appId()).isNotEqualTo(CVM.appId());
        assertThat(app.identity().composeHash()).isEqualTo(CVM.composeHash());
        assertThat(app.identity().instanceId()).isEqualTo(CVM.instanceId());
    }

    @Test
    void rtmr3TamperFailsTheReplay() {
        Verdict verdict = verify(EvidenceTamper.RTMR3, Instant.now());
        assertThat(verdict.valid()).isFalse();
        assertThat(failed(verdict)).containsExactly(CheckNames.EVENT_LOG_RTMR3, CheckNames.EVENT_LOG_IDENTITY);
        assertThat(verdict.identity().composeHash()).as("claims of an unbound log are ignored").isNull();
    }

    @Test
    void signatureTamperFailsTheQuoteSignature() {
        Verdict verdict = verify(EvidenceTamper.SIGNATURE, Instant.now());
        assertThat(verdict.valid()).isFalse();
        assertThat(failed(verdict)).containsExactly(CheckNames.QUOTE_SIGNATURE);
    }

    @Test
    void collateralRunsOutAfterThirtyDays() {
        Verdict verdict = verify(EvidenceTamper.NONE, Instant.now().plus(Duration.ofDays(31)));
        assertThat(verdict.valid()).isFalse();
        assertThat(failed(verdict)).contains(CheckNames.COLLATERAL_WINDOW);
    }

    @Test
    void intelsRootNeverTrustsTheSimulator() {
        CollateralSource source = quote -> Optional.of(collateral(Instant.now()));
        Verdict verdict = verifier.verify(evidence(EvidenceTamper.NONE),
                new VerifyOptions(Instant.now(), List.of(IntelRootCa.certificate()), source));
        assertThat(verdict.valid()).isFalse();
        assertThat(failed(verdict)).contains(CheckNames.PCK_CHAIN, CheckNames.COLLATERAL_SIGNATURES);
    }
}
