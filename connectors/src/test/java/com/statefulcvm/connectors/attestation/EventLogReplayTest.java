package com.statefulcvm.connectors.attestation;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;
import org.junit.jupiter.api.Test;

class EventLogReplayTest {

    @Test
    void version1DigestIsTheTypeNameAndPayloadJoinedByColons() throws Exception {
        MessageDigest sha = MessageDigest.getInstance("SHA-384");
        sha.update(new byte[] {0x01, 0x00, 0x00, 0x08});
        sha.update(":app-id:".getBytes(StandardCharsets.US_ASCII));
        sha.update(new byte[] {(byte) 0xde, (byte) 0xad, (byte) 0xbe, (byte) 0xef});

        assertThat(RuntimeEventDigest.v1("app-id", new byte[] {(byte) 0xde, (byte) 0xad, (byte) 0xbe, (byte) 0xef}))
                .isEqualTo(sha.digest());
    }

    @Test
    void version2HashesTheCanonicalJsonOfNamePayloadAndType() throws Exception {
        String canonical = RuntimeEventDigest.canonicalJsonV2("compose-hash", new byte[] {(byte) 0xab, (byte) 0xcd});

        assertThat(canonical).isEqualTo("{\"name\":\"compose-hash\",\"payload\":\"abcd\",\"type\":134217729}");
        assertThat(RuntimeEventDigest.v2("compose-hash", new byte[] {(byte) 0xab, (byte) 0xcd}))
                .isEqualTo(MessageDigest.getInstance("SHA-384").digest(canonical.getBytes(StandardCharsets.UTF_8)));
        assertThat(RuntimeEventDigest.v2("compose-hash", new byte[] {1}))
                .isNotEqualTo(RuntimeEventDigest.v1("compose-hash", new byte[] {1}));
    }

    @Test
    void version2EscapesNamesTheRfc8785Way() {
        assertThat(RuntimeEventDigest.canonicalJsonV2("a\"b\\c\nd\u0001é", new byte[] {(byte) 0xff}))
                .isEqualTo("{\"name\":\"a\\\"b\\\\c\\nd\\u0001é\",\"payload\":\"ff\",\"type\":134217729}");
        assertThat(RuntimeEventDigest.canonicalJsonV2("", new byte[0]))
                .isEqualTo("{\"name\":\"\",\"payload\":\"\",\"type\":134217729}");
    }

    @Test
    void replaysMixedVersion1AndVersion2Events() throws Exception {
        byte[] appId = {1, 2};
        byte[] compose = {3, 4};
        byte[] expected = fold(RuntimeEventDigest.v1("app-id", appId), RuntimeEventDigest.v2("compose-hash", compose));
        ArrayNode log = AttestationJson.MAPPER.createArrayNode();
        log.add(event("app-id", appId, null));
        log.add(event("compose-hash", compose, 2));
        log.add(boot());

        EventLogReplay.Result result = EventLogReplay.replay(log.toString(), expected);

        assertThat(result.matched()).as(result.check().reason()).isTrue();
        assertThat(result.events()).extracting(EventLogReplay.RuntimeEvent::name)
                .containsExactly("app-id", "compose-hash");
    }

    @Test
    void aVersion2EventReadAsVersion1DoesNotReplay() throws Exception {
        byte[] payload = {3, 4};
        byte[] expected = fold(RuntimeEventDigest.v2("compose-hash", payload));
        ArrayNode log = AttestationJson.MAPPER.createArrayNode();
        log.add(event("compose-hash", payload, null));

        assertThat(EventLogReplay.replay(log.toString(), expected).matched()).isFalse();
    }

    @Test
    void rejectsAnUnknownEventLogVersion() {
        ArrayNode log = AttestationJson.MAPPER.createArrayNode();
        log.add(event("app-id", new byte[] {1}, 3));

        EventLogReplay.Result result = EventLogReplay.replay(log.toString(), new byte[48]);

        assertThat(result.check().reason()).contains("unknown event log version 3");
    }

    @Test
    void nonRuntimeImr3EventsContributeTheirLoggedDigestButNoClaims() throws Exception {
        byte[] digest = new byte[48];
        digest[0] = 9;
        ObjectNode foreign = AttestationJson.MAPPER.createObjectNode();
        foreign.put("imr", 3).put("event_type", 4).put("digest", Bytes.hex(digest)).put("event", "compose-hash")
                .put("event_payload", "00");
        ArrayNode log = AttestationJson.MAPPER.createArrayNode().add(foreign);

        EventLogReplay.Result result = EventLogReplay.replay(log.toString(), fold(digest));

        assertThat(result.matched()).isTrue();
        assertThat(result.events()).isEmpty();
    }

    private static ObjectNode event(String name, byte[] payload, Integer version) {
        ObjectNode node = AttestationJson.MAPPER.createObjectNode();
        node.put("imr", 3).put("event_type", 0x08000001L).put("digest", "").put("event", name)
                .put("event_payload", Bytes.hex(payload));
        if (version != null) {
            node.put("version", version);
        }
        return node;
    }

    private static ObjectNode boot() {
        ObjectNode node = AttestationJson.MAPPER.createObjectNode();
        node.put("imr", 0).put("event_type", 4).put("digest", "11".repeat(48)).put("event", "")
                .put("event_payload", "");
        return node;
    }

    private static byte[] fold(byte[]... digests) throws Exception {
        byte[] mr = new byte[48];
        for (byte[] digest : digests) {
            MessageDigest sha = MessageDigest.getInstance("SHA-384");
            sha.update(mr);
            sha.update(digest);
            mr = sha.digest();
        }
        return mr;
    }

    @Test
    void identityEventsMustBeUniqueAndComplete() {
        var extracted = IdentityExtractor.extract(List.of(
                new EventLogReplay.RuntimeEvent("app-id", new byte[20]),
                new EventLogReplay.RuntimeEvent("compose-hash", new byte[] {1}),
                new EventLogReplay.RuntimeEvent("compose-hash", new byte[] {2}),
                new EventLogReplay.RuntimeEvent("key-provider", "{\"name\":\"kms\",\"id\":\"00\"}".getBytes())));

        assertThat(extracted.check().passed()).isFalse();
        assertThat(extracted.check().reason()).contains("'compose-hash' occurs more than once")
                .contains("'instance-id' is missing");
        assertThat(extracted.identity().composeHash()).as("the first one stands").isEqualTo("01");
    }

    @Test
    void aKeyProviderThatIsNotJsonFailsTheIdentity() {
        var extracted = IdentityExtractor.extract(List.of(
                new EventLogReplay.RuntimeEvent("app-id", new byte[20]),
                new EventLogReplay.RuntimeEvent("compose-hash", new byte[32]),
                new EventLogReplay.RuntimeEvent("instance-id", new byte[20]),
                new EventLogReplay.RuntimeEvent("key-provider", "kms".getBytes())));

        assertThat(extracted.check().reason()).contains("key-provider payload is not JSON");
    }
}
