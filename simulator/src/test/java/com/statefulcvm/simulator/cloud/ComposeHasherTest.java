package com.statefulcvm.simulator.cloud;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class ComposeHasherTest {

    @Test
    void canonicalJsonSortsKeysAtEveryLevelWithoutWhitespace() {
        Map<String, Object> nested = new LinkedHashMap<>();
        nested.put("d", 2);
        nested.put("c", 3);
        Map<String, Object> compose = new LinkedHashMap<>();
        compose.put("b", List.of("y", "x"));
        compose.put("a", nested);
        assertThat(ComposeHasher.canonicalJson(compose)).isEqualTo("{\"a\":{\"c\":3,\"d\":2},\"b\":[\"y\",\"x\"]}");
        assertThat(ComposeHasher.hash(compose)).isEqualTo(
                ComposeHasher.sha256Hex("{\"a\":{\"c\":3,\"d\":2},\"b\":[\"y\",\"x\"]}".getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void sameComposeSameHashWhateverTheOrderDifferentComposeDifferentHash() {
        Map<String, Object> one = new LinkedHashMap<>();
        one.put("name", "app");
        one.put("docker_compose_file", "services: {}\n");
        Map<String, Object> two = new LinkedHashMap<>();
        two.put("docker_compose_file", "services: {}\n");
        two.put("name", "app");
        assertThat(ComposeHasher.hash(one)).isEqualTo(ComposeHasher.hash(two)).matches("^[0-9a-f]{64}$");
        two.put("docker_compose_file", "services: {web: {}}\n");
        assertThat(ComposeHasher.hash(one)).isNotEqualTo(ComposeHasher.hash(two));
    }

    @Test
    void runtimeEventDigestAndRtmrFollowDstack() {
        var event = AttestationBuilder.runtimeEvent("app-id", new byte[] {1, 2});
        byte[] expected = ComposeHasher.digest("SHA-384", new byte[] {1, 0, 0, 8}, ":app-id:".getBytes(StandardCharsets.UTF_8),
                new byte[] {1, 2});
        assertThat(event.digest()).isEqualTo(java.util.HexFormat.of().formatHex(expected));
        assertThat(event.eventPayload()).isEqualTo("0102");
        String rtmr = AttestationBuilder.rtmr(List.of(event), 3);
        assertThat(rtmr).isEqualTo(java.util.HexFormat.of().formatHex(
                ComposeHasher.digest("SHA-384", new byte[48], expected)));
    }
}
