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

    /**
     * Issue 20: the simulated CVM measures the hash dstack's SDK computes (sdk-conformance's @phala/dstack-sdk 0.5.7
     * getComposeHash), for a plain app compose and for one with unicode, control characters and a line separator.
     */
    @Test
    void theMeasuredHashIsTheOneDstacksSdkComputes() {
        Map<String, Object> webdemo = new LinkedHashMap<>();
        webdemo.put("name", "webdemo-0");
        webdemo.put("runner", "docker-compose");
        webdemo.put("manifest_version", 2);
        webdemo.put("docker_compose_file", "services:\n  web:\n    image: nginxdemos/hello:0.4\n    ports:\n      - \"8080:80\"\n");
        webdemo.put("allowed_envs", List.of());
        webdemo.put("gateway_enabled", true);
        webdemo.put("kms_enabled", true);
        webdemo.put("public_logs", false);
        webdemo.put("public_sysinfo", false);
        webdemo.put("public_tcbinfo", true);
        webdemo.put("secure_time", false);
        webdemo.put("storage_fs", "zfs");
        webdemo.put("key_provider", "kms");
        webdemo.put("no_instance_id", false);
        assertThat(ComposeHasher.hash(webdemo)).isEqualTo("15479e1052f7e62364027811d2f3e25b665606bbfbc1823d61ac866aee6b4577");
        Map<String, Object> awkward = new LinkedHashMap<>();
        awkward.put("runner", "docker-compose");
        awkward.put("name", "\u00fcn\u00efcode-\u2713");
        awkward.put("docker_compose_file", "x: \"tab\there\u0001ctl \u001b[31mred \\ slash/ quote\"\u2028");
        awkward.put("allowed_envs", List.of("B", "A"));
        awkward.put("docker_config", Map.of("username", "u", "registry", "r"));
        awkward.put("pre_launch_script", "");
        assertThat(ComposeHasher.hash(awkward)).isEqualTo("62e79a42e1206d3a879ec066c7a435cf5aabc5a1ee7d7d7596d5d52fa084abd1");
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
