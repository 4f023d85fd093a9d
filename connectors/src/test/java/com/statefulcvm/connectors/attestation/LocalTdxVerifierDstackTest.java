package com.statefulcvm.connectors.attestation;

import static com.statefulcvm.connectors.attestation.AttestationVectors.TODAY;
import static com.statefulcvm.connectors.attestation.VerdictAssertions.assertFailed;
import static com.statefulcvm.connectors.attestation.VerdictAssertions.assertPassed;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The dstack 0.6.0 GetQuote capture: genuine quote, PCK chain in the quote, RTMR3 event log with the app identity. */
class LocalTdxVerifierDstackTest {

    private final LocalTdxVerifier verifier = new LocalTdxVerifier();
    private final Evidence evidence = AttestationVectors.dstackEvidence();
    /** No collateral was captured for this platform (FMSPC 90C06F000000); the dcap collateral is for another. */
    private final VerifyOptions options = VerifyOptions.at(TODAY).withRequireCollateral(false);

    @Test
    void verifiesTheCaptureAndReadsItsIdentity() throws Exception {
        Verdict verdict = verifier.verify(evidence, options);

        assertThat(verdict.valid()).as("%s", verdict.failedChecks()).isTrue();
        assertPassed(verdict, CheckNames.QUOTE_FORMAT, CheckNames.QUOTE_SIGNATURE, CheckNames.QE_REPORT_SIGNATURE,
                CheckNames.QE_REPORT_BINDING, CheckNames.PCK_CHAIN, CheckNames.TD_ATTRIBUTES,
                CheckNames.EVENT_LOG_RTMR3, CheckNames.EVENT_LOG_IDENTITY);
        Identity id = verdict.identity();
        assertThat(id.appId()).isEqualTo(AttestationVectors.APP_ID);
        assertThat(id.composeHash()).isEqualTo(AttestationVectors.COMPOSE_HASH);
        assertThat(id.instanceId()).isEqualTo(AttestationVectors.INSTANCE_ID);
        assertThat(id.osImageHash()).isEqualTo(AttestationVectors.OS_IMAGE_HASH);
        assertThat(id.keyProviderJson()).startsWith("{\"name\":\"kms\",\"id\":\"3059").endsWith("dee06\"}");
        assertThat(id.keyProviderName()).isEqualTo("kms");
        assertThat(id.keyProviderId()).startsWith("3059").endsWith("dee06");
        assertThat(id.storageFs()).isEqualTo("zfs");
        byte[] quote = evidence.quote();
        assertThat(id.rtmr3()).isEqualTo(Bytes.hex(java.util.Arrays.copyOfRange(quote, 520, 568)));
        assertThat(id.mrtd()).isEqualTo(Bytes.hex(java.util.Arrays.copyOfRange(quote, 184, 232)));
        String reportData = AttestationJson.MAPPER.readTree(AttestationVectors.getQuoteJson()).get("report_data")
                .asText();
        assertThat(verdict.reportData()).isEqualTo(reportData);
    }

    @Test
    void theCapturedPckChainIsCompleteAndItsSignaturesVerify() throws Exception {
        Quote quote = QuoteParser.parse(evidence.quote());
        var chain = CertChains.parsePem(quote.pckChainPem(), "PCK chain");

        assertThat(chain).hasSize(3);
        assertThat(CertChains.subject(chain.get(0))).isEqualTo("'Intel SGX PCK Certificate'");
        assertThat(CertChains.subject(chain.get(1))).isEqualTo("'Intel SGX PCK Platform CA'");
        assertThat(chain.get(2)).isEqualTo(IntelRootCa.certificate());
        assertThat(CertChains.signedBy(chain.get(0), chain.get(1))).isTrue();
        assertThat(CertChains.signedBy(chain.get(1), chain.get(2))).isTrue();
        assertThat(Bytes.hex(PckExtensions.of(chain.get(0)).fmspc())).isEqualTo("90c06f000000");
    }

    @Test
    void collateralIsRequiredByDefault() {
        Verdict verdict = verifier.verify(evidence, VerifyOptions.at(TODAY));

        assertThat(verdict.valid()).isFalse();
        assertFailed(verdict, CheckNames.COLLATERAL_SIGNATURES, "no collateral");
        assertPassed(verdict, CheckNames.EVENT_LOG_RTMR3);
    }

    @Test
    void collateralForAnotherPlatformIsRejectedOnTheTcbStatus() {
        Verdict verdict = verifier.verify(evidence.withCollateral(AttestationVectors.dcapCollateral()),
                VerifyOptions.at(AttestationVectors.TODAY));

        assertFailed(verdict, CheckNames.TCB_STATUS, "FMSPC 90c06f000000");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"app-id", "compose-hash", "instance-id", "os-image-hash", "key-provider", "storage-fs",
            "system-ready"})
    void rejectsOneChangedRtmr3EventPayload(String event) throws Exception {
        String tampered = mutateRtmr3Event(event, e -> {
            String payload = e.get("event_payload").asText();
            String flipped = payload.isEmpty() ? "00"
                    : payload.substring(0, payload.length() - 1) + (payload.endsWith("0") ? "1" : "0");
            e.put("event_payload", flipped);
        });

        Verdict verdict = verifier.verify(withEventLog(tampered), options);

        assertThat(verdict.valid()).isFalse();
        assertFailed(verdict, CheckNames.EVENT_LOG_RTMR3, "the quote's RTMR3 is");
        assertFailed(verdict, CheckNames.EVENT_LOG_IDENTITY, "not bound to the quote");
        assertThat(verdict.identity().composeHash()).isNull();
        assertThat(verdict.identity().appId()).isNull();
        assertPassed(verdict, CheckNames.QUOTE_SIGNATURE);
    }

    @Test
    void rejectsARenamedEvent() throws Exception {
        String tampered = mutateRtmr3Event("instance-id", e -> e.put("event", "instance-ie"));

        assertFailed(verifier.verify(withEventLog(tampered), options), CheckNames.EVENT_LOG_RTMR3,
                "the quote's RTMR3 is");
    }

    @Test
    void rejectsALoggedDigestThatIsNotTheDigestOfThePayload() throws Exception {
        String tampered = mutateRtmr3Event("compose-hash", e -> e.put("digest", "00".repeat(48)));

        Verdict verdict = verifier.verify(withEventLog(tampered), options);

        assertFailed(verdict, CheckNames.EVENT_LOG_RTMR3, "compose-hash");
        assertFailed(verdict, CheckNames.EVENT_LOG_RTMR3, "not the digest of its payload");
    }

    @Test
    void rejectsReorderedAndDroppedEvents() throws Exception {
        ArrayNode log = eventLog();
        List<JsonNode> entries = new ArrayList<>();
        log.forEach(entries::add);
        int appId = indexOf(entries, "app-id");
        int composeHash = indexOf(entries, "compose-hash");
        ArrayNode swapped = log.deepCopy();
        swapped.set(appId, entries.get(composeHash));
        swapped.set(composeHash, entries.get(appId));
        ArrayNode dropped = log.deepCopy();
        dropped.remove(indexOf(entries, "system-ready"));

        assertFailed(verifier.verify(withEventLog(swapped.toString()), options), CheckNames.EVENT_LOG_RTMR3,
                "the quote's RTMR3 is");
        assertFailed(verifier.verify(withEventLog(dropped.toString()), options), CheckNames.EVENT_LOG_RTMR3,
                "the quote's RTMR3 is");
    }

    @Test
    void aMissingOrBrokenEventLogFails() {
        Evidence noLog = new Evidence(evidence.quote(), null, null, null);
        assertFailed(verifier.verify(noLog, options), CheckNames.EVENT_LOG_RTMR3, "no event log");
        assertThat(verifier.verify(noLog, options).valid()).isFalse();
        assertFailed(verifier.verify(withEventLog("[{\"imr\":"), options), CheckNames.EVENT_LOG_RTMR3,
                "not valid JSON");
        assertFailed(verifier.verify(withEventLog("{}"), options), CheckNames.EVENT_LOG_RTMR3, "not a JSON array");
        assertFailed(verifier.verify(withEventLog("[]"), options), CheckNames.EVENT_LOG_RTMR3, "no imr 3 events");
    }

    @Test
    void aTamperedTdReportByteFailsTheQuoteSignatureToo() {
        byte[] tampered = QuoteSurgery.flip(evidence.quote(), QuoteSurgery.REPORT_DATA + 1);

        Verdict verdict = verifier.verify(new Evidence(tampered, evidence.eventLogJson(), null, null), options);

        assertFailed(verdict, CheckNames.QUOTE_SIGNATURE, "does not verify");
        assertPassed(verdict, CheckNames.EVENT_LOG_RTMR3);
        assertThat(verdict.valid()).isFalse();
    }

    private Evidence withEventLog(String json) {
        return new Evidence(evidence.quote(), json, evidence.vmConfigJson(), null);
    }

    private ArrayNode eventLog() throws Exception {
        return (ArrayNode) AttestationJson.MAPPER.readTree(evidence.eventLogJson());
    }

    private String mutateRtmr3Event(String name, java.util.function.Consumer<ObjectNode> change) throws Exception {
        ArrayNode log = eventLog();
        boolean found = false;
        for (JsonNode entry : log) {
            if (entry.get("imr").asInt() == 3 && name.equals(entry.get("event").asText())) {
                change.accept((ObjectNode) entry);
                found = true;
            }
        }
        assertThat(found).as("event %s in the capture", name).isTrue();
        return log.toString();
    }

    private static int indexOf(List<JsonNode> entries, String event) {
        for (int i = 0; i < entries.size(); i++) {
            if (event.equals(entries.get(i).path("event").asText())) {
                return i;
            }
        }
        throw new AssertionError("no event " + event);
    }
}
