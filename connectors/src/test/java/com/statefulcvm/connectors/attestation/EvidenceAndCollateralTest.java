package com.statefulcvm.connectors.attestation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.security.MessageDigest;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class EvidenceAndCollateralTest {

    @Test
    void readsTheGetQuoteShape() throws Exception {
        Evidence evidence = AttestationVectors.dstackEvidence();

        assertThat(evidence.quote()).hasSize(5006);
        assertThat(AttestationJson.MAPPER.readTree(evidence.eventLogJson()).size()).isEqualTo(29);
        assertThat(evidence.vmConfigJson()).contains("\"os_image_hash\"");
        assertThat(evidence.collateral()).isNull();
        assertThat(evidence).isEqualTo(AttestationVectors.dstackEvidence());
        assertThat(evidence.toString()).contains("5006 bytes").doesNotContain("0400");
    }

    @Test
    void acceptsAnEventLogGivenAsJsonAndAQuoteWithPrefix() throws Exception {
        ObjectNode root = (ObjectNode) AttestationJson.MAPPER.readTree(AttestationVectors.getQuoteJson());
        root.set("event_log", AttestationJson.MAPPER.readTree(root.get("event_log").asText()));
        root.put("quote", "0x" + root.get("quote").asText().toUpperCase());
        root.set("collateral", AttestationJson.MAPPER.readTree(AttestationVectors.text(
                "dcap-tdx-quote-collateral.json")));

        Evidence evidence = Evidence.fromGetQuoteJson(root.toString());

        assertThat(evidence.quote()).isEqualTo(AttestationVectors.dstackEvidence().quote());
        assertThat(AttestationJson.MAPPER.readTree(evidence.eventLogJson()))
                .isEqualTo(AttestationJson.MAPPER.readTree(AttestationVectors.dstackEvidence().eventLogJson()));
        assertThat(evidence.collateral()).isEqualTo(AttestationVectors.dcapCollateral());
    }

    @Test
    void namesTheMalformedField() throws Exception {
        assertThat(field("{}")).isEqualTo("quote");
        assertThat(field("{\"quote\":\"zz\"}")).isEqualTo("quote");
        assertThat(field("{\"quote\":\"0400\",\"event_log\":\"{}\"}")).isEqualTo("event_log");
        assertThat(field("{\"quote\":\"0400\",\"event_log\":\"[\"}")).isEqualTo("event_log");
        assertThat(field("{\"quote\":\"0400\",\"collateral\":{\"tcb_info\":\"{}\"}}"))
                .isEqualTo("collateral.tcb_info_signature");
        assertThat(field("[1]")).isEqualTo("evidence");
        assertThat(field("not json")).isEqualTo("evidence");
    }

    private static String field(String json) {
        return catchThrowableOfType(EvidenceFormatException.class, () -> Evidence.fromGetQuoteJson(json)).field();
    }

    @Test
    void collateralRoundTripsThroughItsJson() {
        Collateral collateral = AttestationVectors.dcapCollateral();

        assertThat(Collateral.fromJson(collateral.toJson())).isEqualTo(collateral);
        assertThat(collateral.tcbInfo()).startsWith("{\"id\":\"TDX\",\"version\":3");
        assertThat(collateral.pckCrlIssuerChain()).startsWith("-----BEGIN CERTIFICATE-----");
        EvidenceFormatException missing = catchThrowableOfType(EvidenceFormatException.class,
                () -> Collateral.fromJson("{\"tcb_info\":\"{}\"}"));
        assertThat(missing.field()).isEqualTo("tcb_info_signature");
    }

    @Test
    void theBundledIntelRootIsPinned() throws Exception {
        var root = IntelRootCa.certificate();

        assertThat(root.getSubjectX500Principal().getName()).contains("CN=Intel SGX Root CA");
        assertThat(root.getNotAfter().toInstant()).isEqualTo(Instant.parse("2049-12-31T23:59:59Z"));
        assertThat(Bytes.hex(MessageDigest.getInstance("SHA-256").digest(root.getEncoded())))
                .isEqualTo(Bytes.hex(MessageDigest.getInstance("SHA-256").digest(
                        AttestationVectors.bytes("intel-sgx-root-ca.der"))));
        assertThat(CertChains.signedBy(root, root)).as("self-signed").isTrue();
    }

    @Test
    void verifyOptionsDefaultToStrictAndIntelRoot() {
        VerifyOptions options = VerifyOptions.at(AttestationVectors.TODAY);

        assertThat(options.trustAnchors()).containsExactly(IntelRootCa.certificate());
        assertThat(options.requireCollateral()).isTrue();
        assertThat(options.requireEventLog()).isTrue();
        assertThat(options.collateralSource()).isNull();
        assertThat(new VerifyOptions(AttestationVectors.TODAY, options.trustAnchors(), null)).isEqualTo(options);
    }

    @Test
    void rawJsonKeepsTheSignedBytes() {
        String body = "{\"tcbInfo\":{\"id\":\"TDX\", \"x\":[1,{\"y\":\"}\"}]},\"signature\":\"ab\"}";

        assertThat(RawJson.member(body, "tcbInfo")).isEqualTo("{\"id\":\"TDX\", \"x\":[1,{\"y\":\"}\"}]}");
    }
}
