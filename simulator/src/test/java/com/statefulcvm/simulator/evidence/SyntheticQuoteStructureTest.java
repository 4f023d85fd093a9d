package com.statefulcvm.simulator.evidence;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.security.KeyFactory;
import java.security.MessageDigest;
import java.security.PublicKey;
import java.security.Signature;
import java.security.cert.CertificateFactory;
import java.security.cert.X509CRL;
import java.security.cert.X509Certificate;
import java.security.spec.ECPoint;
import java.security.spec.ECPublicKeySpec;
import java.math.BigInteger;
import java.security.interfaces.ECPublicKey;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** The synthetic quote parsed back by hand, byte by byte, against Intel's layout; no verifier involved. */
class SyntheticQuoteStructureTest {

    static final HexFormat HEX = HexFormat.of();
    static final AttestedCvm CVM = new AttestedCvm("86b0e55f2fa8e4fb69d890f14f54d5612707646e",
            "2573d54e0d2ddaaade77caa986b0e55f2fa8e4fb69d890f14f54d5612707646e",
            "050bf89570575fe8fab4cb8f0a62a9e64efe8ead",
            "07a2388c7a6a1b6a646d443f1517990a4ec294471d63146cda9d56972765051d", "zfs");

    static SimulatedTdxAuthority authority;
    static SyntheticQuote.AttestationKey key;

    @BeforeAll
    static void authority() {
        authority = new SimulatedTdxAuthority();
        key = SyntheticQuote.newAttestationKey(authority);
    }

    private static byte[] reportData() {
        byte[] data = new byte[64];
        for (int i = 0; i < 64; i++) {
            data[i] = (byte) (0xa0 + i);
        }
        return data;
    }

    private static ByteBuffer le(byte[] bytes, int from) {
        return ByteBuffer.wrap(bytes, from, bytes.length - from).slice().order(ByteOrder.LITTLE_ENDIAN);
    }

    private static byte[] slice(byte[] bytes, int from, int length) {
        return Arrays.copyOfRange(bytes, from, from + length);
    }

    @Test
    void quoteFollowsIntelsV4Layout() throws Exception {
        CvmMeasurements m = CvmMeasurements.of(CVM, EvidenceTamper.NONE);
        byte[] quote = SyntheticQuote.build(m, reportData(), key, false);

        ByteBuffer header = le(quote, 0);
        assertThat(header.getShort(0)).as("version").isEqualTo((short) 4);
        assertThat(header.getShort(2)).as("attestation key type").isEqualTo((short) 2);
        assertThat(header.getInt(4)).as("TEE type").isEqualTo(0x81);
        assertThat(slice(quote, 12, 16)).as("QE vendor id").isEqualTo(HEX.parseHex("939a7233f79c4ca9940a0db3957f0607"));

        assertThat(slice(quote, 48, 16)).as("TEE_TCB_SVN").isEqualTo(SimulatedPlatform.TEE_TCB_SVN);
        assertThat(slice(quote, 48 + 16 + 96 + 8, 8)).as("TDATTRIBUTES").isEqualTo(HEX.parseHex("0000001000000000"));
        assertThat(slice(quote, 184, 48)).as("MRTD").isEqualTo(m.mrTd());
        assertThat(slice(quote, 232, 48)).as("MRCONFIGID = 01 || compose hash")
                .startsWith(1).containsSubsequence(HEX.parseHex(CVM.composeHash()));
        assertThat(slice(quote, 376, 48)).as("RTMR0").isEqualTo(m.eventLog().rtmr(0));
        assertThat(slice(quote, 424, 48)).as("RTMR1").isEqualTo(m.eventLog().rtmr(1));
        assertThat(slice(quote, 472, 48)).as("RTMR2").isEqualTo(m.eventLog().rtmr(2));
        assertThat(slice(quote, 520, 48)).as("RTMR3").isEqualTo(m.eventLog().rtmr(3));
        assertThat(slice(quote, 568, 64)).as("REPORTDATA").isEqualTo(reportData());

        int signatureDataLength = le(quote, 632).getInt(0);
        assertThat(quote.length).isEqualTo(636 + signatureDataLength);
        byte[] signature = slice(quote, 636, 64);
        byte[] attestationKey = slice(quote, 700, 64);
        assertThat(attestationKey).isEqualTo(key.publicKey());
        assertThat(verifyRaw(publicKey(attestationKey), slice(quote, 0, 632), signature))
                .as("attestation key signs header + body").isTrue();

        ByteBuffer cert = le(quote, 764);
        assertThat(cert.getShort(0)).as("certification data type").isEqualTo((short) 6);
        int certSize = cert.getInt(2);
        assertThat(770 + certSize).isEqualTo(quote.length);
        int qe = 770;
        byte[] qeReport = slice(quote, qe, 384);
        byte[] qeSignature = slice(quote, qe + 384, 64);
        int authSize = le(quote, qe + 448).getShort(0);
        byte[] authData = slice(quote, qe + 450, authSize);
        assertThat(authData).isEqualTo(SimulatedPlatform.QE_AUTH_DATA);
        byte[] expectedBinding = MessageDigest.getInstance("SHA-256")
                .digest(concat(attestationKey, authData));
        assertThat(slice(qeReport, 320, 32)).as("QE REPORTDATA binds the key").isEqualTo(expectedBinding);
        assertThat(slice(qeReport, 352, 32)).as("zero padding").isEqualTo(new byte[32]);
        assertThat(slice(qeReport, 128, 32)).as("QE MRSIGNER").isEqualTo(SimulatedPlatform.QE_MR_SIGNER);
        assertThat(le(qeReport, 256).getShort(0)).as("QE ISVPRODID").isEqualTo((short) 2);

        int inner = qe + 450 + authSize;
        assertThat(le(quote, inner).getShort(0)).as("PCK certification data type").isEqualTo((short) 5);
        int pemSize = le(quote, inner + 2).getInt(0);
        assertThat(inner + 6 + pemSize).isEqualTo(quote.length);
        String pem = new String(slice(quote, inner + 6, pemSize), StandardCharsets.US_ASCII);
        assertThat(pem).endsWith("-----END CERTIFICATE-----\n\0");
        List<X509Certificate> chain = new ArrayList<>();
        CertificateFactory.getInstance("X.509")
                .generateCertificates(new ByteArrayInputStream(pem.replace("\0", "").getBytes(StandardCharsets.US_ASCII)))
                .forEach(c -> chain.add((X509Certificate) c));
        assertThat(chain).hasSize(3);
        assertThat(chain.get(2)).isEqualTo(authority.rootCertificate());
        assertThat(chain.get(1).getSubjectX500Principal().getName()).contains("PCK Platform CA", "NOT INTEL");
        assertThat(verifyRaw(chain.get(0).getPublicKey(), qeReport, qeSignature)).as("PCK key signs QE report").isTrue();
        chain.get(0).verify(chain.get(1).getPublicKey());
        chain.get(1).verify(chain.get(2).getPublicKey());
        chain.get(2).verify(chain.get(2).getPublicKey());
        assertThat(chain.get(0).getExtensionValue("1.2.840.113741.1.13.1")).as("Intel SGX extension").isNotNull();
        assertThat(chain.get(0).getNonCriticalExtensionOIDs()).contains("1.2.840.113741.1.13.1");
        assertThat(authority.rootCertificate().getSubjectX500Principal().getName())
                .contains("CN=Stateful CVM Simulator SGX Root CA (NOT INTEL)");
    }

    @Test
    void brokenSignatureDiffersInOneBitOnly() throws Exception {
        CvmMeasurements m = CvmMeasurements.of(CVM, EvidenceTamper.NONE);
        byte[] quote = SyntheticQuote.build(m, reportData(), key, true);
        assertThat(verifyRaw(publicKey(slice(quote, 700, 64)), slice(quote, 0, 632), slice(quote, 636, 64)))
                .isFalse();
    }

    @Test
    void eventLogReplaysAndCarriesTheCvmsValues() throws Exception {
        DstackEventLog log = DstackEventLog.of(CVM);
        List<String> runtime = log.events().stream().filter(e -> e.imr() == 3).map(DstackEventLog.Event::event)
                .toList();
        assertThat(runtime).isEqualTo(DstackEventLog.RUNTIME_EVENTS);
        assertThat(log.payload("app-id")).isEqualTo(CVM.appId());
        assertThat(log.payload("compose-hash")).isEqualTo(CVM.composeHash());
        assertThat(log.payload("instance-id")).isEqualTo(CVM.instanceId());
        assertThat(log.payload("os-image-hash")).isEqualTo(CVM.osImageHash());
        assertThat(new String(HEX.parseHex(log.payload("storage-fs")), StandardCharsets.UTF_8)).isEqualTo("zfs");
        JsonNode keyProvider = new ObjectMapper().readTree(HEX.parseHex(log.payload("key-provider")));
        assertThat(keyProvider.get("name").asText()).isEqualTo("kms");
        assertThat(keyProvider.get("id").asText()).isEqualTo(DstackEventLog.kmsPublicKey()).startsWith("3059301306");

        MessageDigest sha384 = MessageDigest.getInstance("SHA-384");
        byte[] mr = new byte[48];
        for (JsonNode event : new ObjectMapper().readTree(log.toJson())) {
            if (event.get("imr").asInt() != 3) {
                continue;
            }
            byte[] digest = sha384.digest(concat(new byte[] {1, 0, 0, 8},
                    (":" + event.get("event").asText() + ":").getBytes(StandardCharsets.UTF_8),
                    HEX.parseHex(event.get("event_payload").asText())));
            assertThat(event.get("digest").asText()).isEqualTo(HEX.formatHex(digest));
            mr = sha384.digest(concat(mr, digest));
        }
        assertThat(mr).isEqualTo(log.rtmr(3));
        for (int imr = 0; imr < 3; imr++) {
            assertThat(log.rtmr(imr)).as("RTMR" + imr + " has events").isNotEqualTo(new byte[48]);
        }
    }

    @Test
    void tampersChangeWhatTheyShould() {
        CvmMeasurements honest = CvmMeasurements.of(CVM, EvidenceTamper.NONE);
        CvmMeasurements compose = CvmMeasurements.of(CVM, EvidenceTamper.COMPOSE_HASH);
        assertThat(compose.eventLog().payload("compose-hash")).isNotEqualTo(CVM.composeHash()).hasSize(64);
        assertThat(compose.rtmr3()).as("consistent").isEqualTo(compose.eventLog().rtmr(3));
        CvmMeasurements app = CvmMeasurements.of(CVM, EvidenceTamper.APP_ID);
        assertThat(app.eventLog().payload("app-id")).isNotEqualTo(CVM.appId()).hasSize(40);
        assertThat(app.eventLog().payload("compose-hash")).isEqualTo(CVM.composeHash());
        assertThat(app.rtmr3()).isEqualTo(app.eventLog().rtmr(3));
        CvmMeasurements rtmr3 = CvmMeasurements.of(CVM, EvidenceTamper.RTMR3);
        assertThat(rtmr3.eventLog().toJson()).as("the log looks honest").isEqualTo(honest.eventLog().toJson());
        assertThat(rtmr3.rtmr3()).isNotEqualTo(rtmr3.eventLog().rtmr(3));
        assertThat(EvidenceTamper.fromWireName("compose-hash")).contains(EvidenceTamper.COMPOSE_HASH);
        assertThat(EvidenceTamper.fromWireName("bogus")).isEmpty();
    }

    @Test
    void crlsAreSignedByTheirCas() throws Exception {
        CertificateFactory factory = CertificateFactory.getInstance("X.509");
        X509CRL root = (X509CRL) factory.generateCRL(new ByteArrayInputStream(authority.rootCaCrl()));
        root.verify(authority.rootCertificate().getPublicKey());
        X509CRL pck = (X509CRL) factory.generateCRL(new ByteArrayInputStream(authority.pckCrl()));
        pck.verify(authority.platformCaCertificate().getPublicKey());
        assertThat(pck.getIssuerX500Principal()).isEqualTo(authority.pckCertificate().getIssuerX500Principal());
        assertThat(pck.isRevoked(authority.pckCertificate())).isFalse();
    }

    /** The GetQuote shape copies dstack's: the same keys and JSON types as the real capture. */
    @Test
    void eventLogUsesTheFieldNamesAndEncodingsOfTheDstackCapture() throws Exception {
        String capture = "/test-vectors/attestation/dstack-0.6.0-getquote.json";   // from connectors' test jar
        ObjectMapper json = new ObjectMapper();
        JsonNode real = json.readTree(Objects.requireNonNull(getClass().getResource(capture), capture));
        JsonNode realEvent = json.readTree(real.get("event_log").asText()).get(0);
        JsonNode ours = json.readTree(DstackEventLog.of(CVM).toJson()).get(0);
        List<String> realFields = new ArrayList<>();
        realEvent.fieldNames().forEachRemaining(realFields::add);
        List<String> ourFields = new ArrayList<>();
        ours.fieldNames().forEachRemaining(ourFields::add);
        assertThat(ourFields).isEqualTo(realFields);
        for (String field : realFields) {
            assertThat(ours.get(field).getNodeType()).as(field).isEqualTo(realEvent.get(field).getNodeType());
        }
        assertThat(real.get("quote").asText()).startsWith("04000200810000");
    }

    static boolean verifyRaw(PublicKey key, byte[] data, byte[] raw) throws Exception {
        Signature verifier = Signature.getInstance("SHA256withECDSAinP1363Format");
        verifier.initVerify(key);
        verifier.update(data);
        return verifier.verify(raw);
    }

    static PublicKey publicKey(byte[] raw) throws Exception {
        var params = ((ECPublicKey) SimulatedTdxAuthority.newKeyPair().getPublic()).getParams();
        ECPoint point = new ECPoint(new BigInteger(1, slice(raw, 0, 32)), new BigInteger(1, slice(raw, 32, 32)));
        return KeyFactory.getInstance("EC").generatePublic(new ECPublicKeySpec(point, params));
    }

    static byte[] concat(byte[]... parts) {
        return EvidenceBytes.concat(parts);
    }
}
