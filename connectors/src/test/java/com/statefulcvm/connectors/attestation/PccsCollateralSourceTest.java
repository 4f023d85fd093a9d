package com.statefulcvm.connectors.attestation;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A PCCS in WireMock serving the real collateral the way Intel's PCS v4 API shapes it. */
class PccsCollateralSourceTest {

    private static WireMockServer pccs;
    private final Collateral expected = AttestationVectors.dcapCollateral();
    private final Quote quote = QuoteParser.parse(AttestationVectors.dcapQuote());

    @BeforeAll
    static void start() {
        pccs = new WireMockServer(WireMockConfiguration.options().dynamicPort());
        pccs.start();
    }

    @AfterAll
    static void stop() {
        pccs.stop();
    }

    @BeforeEach
    void reset() {
        pccs.resetAll();
    }

    private PccsCollateralSource source() {
        return PccsCollateralSource.create(pccs.baseUrl() + "/sgx/certification/v4/", Duration.ofSeconds(2));
    }

    private void serveAll() {
        // Pretty-printed on purpose: the signed bytes must come through exactly as served, spaces and all.
        String tcbBody = "{\n  \"tcbInfo\": " + expected.tcbInfo() + ",\n  \"signature\": \""
                + expected.tcbInfoSignature() + "\"\n}";
        pccs.stubFor(get(urlEqualTo("/tdx/certification/v4/tcb?fmspc=B0C06F000000")).willReturn(aResponse()
                .withStatus(200).withHeader("Content-Type", "application/json")
                .withHeader("TCB-Info-Issuer-Chain", encode(expected.tcbInfoIssuerChain())).withBody(tcbBody)));
        pccs.stubFor(get(urlPathEqualTo("/tdx/certification/v4/qe/identity")).willReturn(aResponse()
                .withStatus(200).withHeader("SGX-Enclave-Identity-Issuer-Chain",
                        encode(expected.qeIdentityIssuerChain()))
                .withBody("{\"enclaveIdentity\":" + expected.qeIdentity() + ",\"signature\":\""
                        + expected.qeIdentitySignature() + "\"}")));
        pccs.stubFor(get(urlEqualTo("/sgx/certification/v4/pckcrl?ca=platform&encoding=der")).willReturn(aResponse()
                .withStatus(200).withHeader("SGX-PCK-CRL-Issuer-Chain", encode(expected.pckCrlIssuerChain()))
                .withBody(Bytes.unhex(expected.pckCrl()))));
        pccs.stubFor(get(urlEqualTo("/sgx/certification/v4/rootcacrl")).willReturn(aResponse()
                .withStatus(200).withBody(expected.rootCaCrl())));
    }

    private static String encode(String pem) {
        return URLEncoder.encode(pem, StandardCharsets.UTF_8).replace("+", "%20");
    }

    @Test
    void fetchesTheCollateralForTheQuotesPlatform() {
        serveAll();

        Optional<Collateral> fetched = source().fetch(quote);

        assertThat(fetched).contains(expected);
        pccs.verify(getRequestedFor(urlEqualTo("/tdx/certification/v4/qe/identity?update=standard")));
    }

    @Test
    void fetchedCollateralVerifiesTheQuote() {
        serveAll();

        Verdict verdict = new LocalTdxVerifier().verify(new Evidence(AttestationVectors.dcapQuote(), null, null, null),
                VerifyOptions.at(AttestationVectors.IN_WINDOW).withRequireEventLog(false)
                        .withCollateralSource(source()));

        assertThat(verdict.valid()).as("%s", verdict.failedChecks()).isTrue();
        assertThat(verdict.tcbStatus()).isEqualTo("UpToDate");
    }

    @Test
    void anUnknownPlatformHasNoCollateral() {
        pccs.stubFor(get(urlPathEqualTo("/tdx/certification/v4/tcb")).willReturn(aResponse().withStatus(404)));

        assertThat(source().fetch(quote)).isEmpty();
    }

    @Test
    void aFailingPccsIsAnExceptionNamingTheUrl() {
        serveAll();
        pccs.stubFor(get(urlPathEqualTo("/sgx/certification/v4/pckcrl")).willReturn(aResponse().withStatus(503)));

        assertThatThrownBy(() -> source().fetch(quote)).isInstanceOf(CollateralFetchException.class)
                .hasMessageContaining("pckcrl?ca=platform").hasMessageContaining("HTTP 503");
    }

    @Test
    void aMissingIssuerChainHeaderIsAnException() {
        serveAll();
        pccs.stubFor(get(urlPathEqualTo("/tdx/certification/v4/qe/identity")).willReturn(aResponse()
                .withStatus(200).withBody("{\"enclaveIdentity\":{},\"signature\":\"00\"}")));

        assertThatThrownBy(() -> source().fetch(quote)).hasMessageContaining("SGX-Enclave-Identity-Issuer-Chain");
    }

    @Test
    void anUnreachablePccsIsAnException() {
        PccsCollateralSource dead = PccsCollateralSource.create("http://127.0.0.1:1", Duration.ofSeconds(1));

        assertThatThrownBy(() -> dead.fetch(quote)).isInstanceOf(CollateralFetchException.class)
                .hasMessageContaining("failed");
    }

    @Test
    void acceptsCrlsAsDerPemOrHex() {
        byte[] der = Bytes.unhex(expected.rootCaCrl());
        String pem = "-----BEGIN X509 CRL-----\n" + java.util.Base64.getMimeEncoder().encodeToString(der)
                + "\n-----END X509 CRL-----\n";

        assertThat(PccsCollateralSource.crl(der, "u")).isEqualTo(der);
        assertThat(PccsCollateralSource.crl(pem.getBytes(StandardCharsets.US_ASCII), "u")).isEqualTo(der);
        assertThat(PccsCollateralSource.crl(expected.rootCaCrl().getBytes(StandardCharsets.US_ASCII), "u"))
                .isEqualTo(der);
        assertThatThrownBy(() -> PccsCollateralSource.crl("nope".getBytes(StandardCharsets.US_ASCII), "u"))
                .hasMessageContaining("neither DER, PEM nor hex");
    }
}
