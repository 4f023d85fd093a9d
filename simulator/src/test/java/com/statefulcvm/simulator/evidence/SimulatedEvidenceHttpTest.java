package com.statefulcvm.simulator.evidence;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.statefulcvm.connectors.attestation.Check;
import com.statefulcvm.connectors.attestation.CheckNames;
import com.statefulcvm.connectors.attestation.CollateralSource;
import com.statefulcvm.connectors.attestation.Evidence;
import com.statefulcvm.connectors.attestation.LocalTdxVerifier;
import com.statefulcvm.connectors.attestation.PccsCollateralSource;
import com.statefulcvm.connectors.attestation.Verdict;
import com.statefulcvm.connectors.attestation.VerifyOptions;
import com.statefulcvm.simulator.SimClient;
import com.statefulcvm.simulator.SimulatorHttpTestBase;

/**
 * The simulator's evidence over real HTTP, judged by the orchestrator's {@link LocalTdxVerifier} with the trust anchor
 * from {@code /simulator/_admin/trust-anchor} and collateral fetched from the simulated PCCS by the orchestrator's
 * {@link PccsCollateralSource}.
 */
class SimulatedEvidenceHttpTest extends SimulatorHttpTestBase {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final LocalTdxVerifier verifier = new LocalTdxVerifier();
    private X509Certificate root;

    @BeforeEach
    void trustAnchor() throws Exception {
        SimClient.Response pem = sim.get(SimClient.ADMIN + "/trust-anchor");
        assertThat(pem.status()).isEqualTo(200);
        assertThat(pem.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("application/x-pem-file"));
        root = (X509Certificate) CertificateFactory.getInstance("X.509")
                .generateCertificate(new ByteArrayInputStream(pem.body().getBytes(StandardCharsets.US_ASCII)));
        assertThat(root.getSubjectX500Principal().getName()).contains("NOT INTEL");
    }

    private String pccsUrl() {
        return "http://127.0.0.1:" + port + SimulatedPccs.PATH;
    }

    /** The orchestrator's own PCCS client, pointed at the simulated PCCS. */
    private CollateralSource pccs() {
        return PccsCollateralSource.create(pccsUrl(), Duration.ofSeconds(5));
    }

    private static String randomReportData() {
        byte[] bytes = new byte[64];
        new SecureRandom().nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }

    private SimClient.Response getQuote(String target, String reportData) {
        return sim.send("GET", "/simulator/gateway/" + target + "/GetQuote"
                + (reportData == null ? "" : "?report_data=" + reportData), null, null, null);
    }

    private Verdict verify(String getQuoteJson) {
        return verifier.verify(Evidence.fromGetQuoteJson(getQuoteJson),
                new VerifyOptions(Instant.now(), List.of(root), pccs()));
    }

    private SimClient.Response tamper(String cvm, Object tamper) {
        return sim.post(SimClient.ADMIN + "/cvms/" + cvm + "/evidence", tamper == null ? null : Map.of("tamper", tamper));
    }

    private static List<String> failed(Verdict verdict) {
        return verdict.failedChecks().stream().map(Check::name).toList();
    }

    @Test
    void getQuoteOfARunningCvmVerifiesAgainstTheSimulatorRootAndPccs() throws Exception {
        JsonNode cvm = createRunningApp("attest-ok-1");
        String instanceId = cvm.get("instance_id").asText();
        String reportData = randomReportData();

        SimClient.Response response = getQuote(instanceId + "-8090", reportData);
        assertThat(response.status()).as(response.toString()).isEqualTo(200);
        JsonNode answer = response.json();
        List<String> fields = new ArrayList<>();
        answer.fieldNames().forEachRemaining(fields::add);
        assertThat(fields).containsExactly("quote", "event_log", "report_data", "vm_config");
        assertThat(answer.get("event_log").isTextual()).as("event_log is JSON text").isTrue();
        assertThat(answer.get("vm_config").isTextual()).as("vm_config is JSON text").isTrue();
        assertThat(answer.get("report_data").asText()).isEqualTo(reportData);

        Verdict verdict = verify(response.body());
        assertThat(verdict.checks()).as(verdict.checks().toString()).allMatch(Check::passed);
        assertThat(verdict.checks()).extracting(Check::name).containsExactlyElementsOf(CheckNames.LOCAL);
        assertThat(verdict.valid()).isTrue();
        assertThat(verdict.tcbStatus()).isEqualTo("UpToDate");
        assertThat(verdict.reportData()).isEqualTo(reportData);
        assertThat(verdict.identity().appId()).isEqualTo(cvm.get("app_id").asText());
        assertThat(verdict.identity().composeHash()).isEqualTo(cvm.get("compose_hash").asText());
        assertThat(verdict.identity().instanceId()).isEqualTo(instanceId);
        assertThat(verdict.identity().keyProviderId()).isEqualTo(DstackEventLog.kmsPublicKey());

        // the cloud's attestation view carries the same event log and measurements
        JsonNode tcb = sim.get(api("/cvms/attest-ok-1/attestation")).json().get("tcb_info");
        assertThat(tcb.get("event_log")).isEqualTo(JSON.readTree(answer.get("event_log").asText()));
        assertThat(tcb.get("mrtd").asText()).isEqualTo(verdict.identity().mrtd());
        assertThat(tcb.get("rtmr0").asText()).isEqualTo(verdict.identity().rtmr0());
        assertThat(tcb.get("rtmr1").asText()).isEqualTo(verdict.identity().rtmr1());
        assertThat(tcb.get("rtmr2").asText()).isEqualTo(verdict.identity().rtmr2());
        assertThat(tcb.get("rtmr3").asText()).isEqualTo(verdict.identity().rtmr3());

        // a shorter report_data is zero-padded, as dstack does; the app id reaches a CVM of the app as well
        SimClient.Response viaApp = getQuote(cvm.get("app_id").asText() + "-8090", "cafe");
        assertThat(viaApp.status()).isEqualTo(200);
        assertThat(viaApp.json().get("report_data").asText()).isEqualTo("cafe" + "0".repeat(124));
        assertThat(verify(viaApp.body()).valid()).isTrue();
    }

    @Test
    void tampersAreStickyAndFailTheRightCheckOrChangeTheRightIdentity() {
        JsonNode cvm = createRunningApp("attest-tamper-1");
        String target = cvm.get("instance_id").asText() + "-8090";

        SimClient.Response set = tamper("attest-tamper-1", "compose-hash");
        assertThat(set.status()).as(set.toString()).isEqualTo(200);
        assertThat(set.json().get("tamper").asText()).isEqualTo("compose-hash");
        Verdict compose = verify(getQuote(target, randomReportData()).body());
        assertThat(compose.valid()).as("the verifier passes; admission must reject").isTrue();
        assertThat(compose.identity().composeHash()).isNotEqualTo(cvm.get("compose_hash").asText());
        assertThat(compose.identity().appId()).isEqualTo(cvm.get("app_id").asText());
        assertThat(verify(getQuote(target, randomReportData()).body()).identity().composeHash())
                .as("sticky").isEqualTo(compose.identity().composeHash());
        assertThat(sim.get(SimClient.ADMIN + "/cvms/attest-tamper-1/evidence").json().get("tamper").asText())
                .isEqualTo("compose-hash");

        tamper("attest-tamper-1", "app-id");
        Verdict app = verify(getQuote(target, randomReportData()).body());
        assertThat(app.valid()).isTrue();
        assertThat(app.identity().appId()).isNotEqualTo(cvm.get("app_id").asText());
        assertThat(app.identity().composeHash()).isEqualTo(cvm.get("compose_hash").asText());

        tamper("attest-tamper-1", "rtmr3");
        Verdict rtmr3 = verify(getQuote(target, randomReportData()).body());
        assertThat(rtmr3.valid()).isFalse();
        assertThat(failed(rtmr3)).containsExactly(CheckNames.EVENT_LOG_RTMR3, CheckNames.EVENT_LOG_IDENTITY);

        tamper("attest-tamper-1", "signature");
        Verdict signature = verify(getQuote(target, randomReportData()).body());
        assertThat(signature.valid()).isFalse();
        assertThat(failed(signature)).containsExactly(CheckNames.QUOTE_SIGNATURE);

        assertThat(tamper("attest-tamper-1", "none").json().get("tamper").asText()).isEqualTo("none");
        Verdict honest = verify(getQuote(target, randomReportData()).body());
        assertThat(honest.valid()).isTrue();
        assertThat(honest.identity().composeHash()).isEqualTo(cvm.get("compose_hash").asText());
    }

    @Test
    void tamperRequestsAreChecked() {
        createApp("attest-bad-1");
        SimClient.Response bogus = tamper("attest-bad-1", "mrtd");
        assertThat(bogus.status()).isEqualTo(400);
        assertThat(bogus.json().get("detail").asText()).contains("tamper", "compose-hash", "rtmr3", "signature",
                "app-id", "none");
        assertThat(tamper("attest-bad-1", 3).status()).isEqualTo(400);
        assertThat(tamper("attest-bad-1", null).status()).isEqualTo(400);
        assertThat(tamper("no-such-cvm", "rtmr3").status()).isEqualTo(404);
    }

    @Test
    void getQuoteNeedsARunningCvmAndItsPort() {
        JsonNode cvm = createRunningApp("attest-gw-1");
        String id = cvm.get("instance_id").asText();
        assertThat(getQuote(id + "-8080", randomReportData()).json().get("status").asText())
                .as("another port keeps the health behaviour").isEqualTo("ok");
        assertThat(getQuote(id + "-8090", null).status()).as("report_data is required").isEqualTo(400);
        assertThat(getQuote(id + "-8090", "zz").status()).isEqualTo(400);
        assertThat(getQuote(id + "-8090", "00".repeat(65)).status()).isEqualTo(400);
        assertThat(sim.send("GET", "/simulator/gateway/" + id + "-8090/health", null, null, null).status())
                .as("other paths of the guest agent port answer as before").isEqualTo(200);

        sim.post(SimClient.ADMIN + "/cvms/attest-gw-1/health", Map.of("healthy", false));
        assertThat(getQuote(id + "-8090", randomReportData()).status())
                .as("the guest agent answers for an unhealthy workload").isEqualTo(200);

        sim.post(SimClient.ADMIN + "/cvms/attest-gw-1/crash", null);
        SimClient.Response stopped = getQuote(id + "-8090", randomReportData());
        assertThat(stopped.status()).isEqualTo(502);
        assertThat(stopped.body()).isEqualTo("no upstream");
        assertThat(getQuote("0".repeat(40) + "-8090", randomReportData()).status()).isEqualTo(502);
    }

    @Test
    void pccsServesIntelsPathsAndHeaders() {
        SimClient.Response tcb = sim.send("GET", SimulatedPccs.PATH + "/tdx/certification/v4/tcb?fmspc="
                + SimulatedPlatform.FMSPC.toLowerCase(), null, null, null);
        assertThat(tcb.status()).isEqualTo(200);
        assertThat(tcb.json().get("tcbInfo").get("id").asText()).isEqualTo("TDX");
        assertThat(tcb.json().get("tcbInfo").get("version").asInt()).isEqualTo(3);
        assertThat(tcb.json().get("signature").asText()).matches("^[0-9a-f]{128}$");
        String chain = URLDecoder.decode(tcb.headers().firstValue("TCB-Info-Issuer-Chain").orElseThrow(),
                StandardCharsets.UTF_8);
        assertThat(chain).startsWith("-----BEGIN CERTIFICATE-----").contains("-----END CERTIFICATE-----\n-----BEGIN");
        assertThat(Instant.parse(tcb.json().get("tcbInfo").get("nextUpdate").asText())).isAfter(Instant.now());

        SimClient.Response qe = sim.send("GET", SimulatedPccs.PATH + "/tdx/certification/v4/qe/identity", null, null,
                null);
        assertThat(qe.status()).isEqualTo(200);
        assertThat(qe.json().get("enclaveIdentity").get("id").asText()).isEqualTo("TD_QE");
        assertThat(qe.headers().firstValue("SGX-Enclave-Identity-Issuer-Chain")).isPresent();

        SimClient.Response crl = sim.send("GET", SimulatedPccs.PATH + "/sgx/certification/v4/pckcrl?ca=platform",
                null, null, null);
        assertThat(crl.status()).isEqualTo(200);
        assertThat(crl.body()).startsWith("-----BEGIN X509 CRL-----");
        assertThat(crl.headers().firstValue("SGX-PCK-CRL-Issuer-Chain")).isPresent();
        assertThat(sim.send("GET", SimulatedPccs.PATH + "/sgx/certification/v4/rootcacrl", null, null, null).body())
                .matches("^[0-9a-f]+$");

        assertThat(sim.send("GET", SimulatedPccs.PATH + "/tdx/certification/v4/tcb?fmspc=00606A000000", null, null,
                null).status()).as("another platform").isEqualTo(404);
        assertThat(sim.send("GET", SimulatedPccs.PATH + "/sgx/certification/v4/pckcrl?ca=bogus", null, null, null)
                .status()).isEqualTo(400);
    }
}
