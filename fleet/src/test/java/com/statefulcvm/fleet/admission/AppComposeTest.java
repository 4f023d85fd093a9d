package com.statefulcvm.fleet.admission;

import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * dstack's app-compose form held against hashes computed by the official SDKs (sdk-conformance's
 * {@code @phala/dstack-sdk} 0.5.7 {@code getComposeHash}, and {@code @phala/cloud} 0.2.9's {@code dumpAppCompose} form):
 * the same documents give the same hashes here.
 */
class AppComposeTest {

    /** The app compose the simulator builds for webdemo-0 (platform defaults and what FleetBootstrap sends). */
    static Map<String, Object> webdemo() {
        Map<String, Object> compose = new LinkedHashMap<>();
        compose.put("name", "webdemo-0");
        compose.put("runner", "docker-compose");
        compose.put("manifest_version", 2);
        compose.put("docker_compose_file", "services:\n  web:\n    image: nginxdemos/hello:0.4\n    ports:\n      - \"8080:80\"\n");
        compose.put("allowed_envs", List.of());
        compose.put("gateway_enabled", true);
        compose.put("kms_enabled", true);
        compose.put("public_logs", false);
        compose.put("public_sysinfo", false);
        compose.put("public_tcbinfo", true);
        compose.put("secure_time", false);
        compose.put("storage_fs", "zfs");
        compose.put("key_provider", "kms");
        compose.put("no_instance_id", false);
        return compose;
    }

    /** Unicode, control characters (one with hex letters: ESC), a line separator, backslashes, slashes, quotes, a nested object and an empty pre-launch script. */
    static Map<String, Object> awkward() {
        Map<String, Object> compose = new LinkedHashMap<>();
        compose.put("runner", "docker-compose");
        compose.put("name", "ünïcode-✓");
        compose.put("docker_compose_file", "x: \"tab\there\u0001ctl \u001b[31mred \\ slash/ quote\"\u2028");
        compose.put("allowed_envs", List.of("B", "A"));
        compose.put("docker_config", Map.of("username", "u", "registry", "r"));
        compose.put("pre_launch_script", "");
        return compose;
    }

    static Map<String, Object> bash() {
        Map<String, Object> compose = new LinkedHashMap<>();
        compose.put("runner", "bash");
        compose.put("bash_script", "echo hi");
        compose.put("docker_compose_file", "dropped when normalized");
        compose.put("pre_launch_script", "set -e");
        return compose;
    }

    @Test
    void theDeterministicFormHashesAsTheDstackSdkDoes() {
        assertThat(AppCompose.deterministicJson(webdemo())).isEqualTo("{\"allowed_envs\":[],\"docker_compose_file\":\"services:\\n  web:\\n"
                + "    image: nginxdemos/hello:0.4\\n    ports:\\n      - \\\"8080:80\\\"\\n\",\"gateway_enabled\":true,\"key_provider\":\"kms\","
                + "\"kms_enabled\":true,\"manifest_version\":2,\"name\":\"webdemo-0\",\"no_instance_id\":false,\"public_logs\":false,"
                + "\"public_sysinfo\":false,\"public_tcbinfo\":true,\"runner\":\"docker-compose\",\"secure_time\":false,\"storage_fs\":\"zfs\"}");
        assertThat(AppCompose.hash(webdemo())).isEqualTo("15479e1052f7e62364027811d2f3e25b665606bbfbc1823d61ac866aee6b4577");
        assertThat(AppCompose.hash(awkward())).isEqualTo("62e79a42e1206d3a879ec066c7a435cf5aabc5a1ee7d7d7596d5d52fa084abd1");
        assertThat(AppCompose.hash(bash())).isEqualTo("5e96baa2c4f8a1b023cd11b79e70ed59761111ac81a64d05c8e6eccbb9a55681");
    }

    @Test
    void normalizedItHashesAsTheSdksNormalizedForm() {
        assertThat(AppCompose.hash(AppCompose.normalized(awkward()))).isEqualTo("737b39a17df955b129c8d14c27d22fc24ce2e650195aa95f076acb5327933341");
        assertThat(AppCompose.hash(AppCompose.normalized(bash()))).isEqualTo("f8671f1db297d45d096e47c945004056665a2beb420a85310805fb9a6d0ab0b7");
    }

    @Test
    void phalaCloudsIndentedFormIsTheOtherAcceptedHash() {
        assertThat(AppCompose.hashes(webdemo())).containsExactly("15479e1052f7e62364027811d2f3e25b665606bbfbc1823d61ac866aee6b4577",
                "6e6af612a80cda4d74276b2851e8e07f639ae4c87461d55c50378fd57d110101");
        assertThat(AppCompose.hashes(awkward())).contains("b3f404ca02ed29715986464ed3471fbc34815b20e6f8d59644c8b0e566eb565b");
        assertThat(AppCompose.hashes(bash())).contains("9fef1774435feac64e14327253d92f193218487038e5ed5ce7f6ab94c88f34f0");
    }
}
