package com.statefulcvm.simulator.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.StreamSupport;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.statefulcvm.simulator.SimClient;
import com.statefulcvm.simulator.SimulatorHttpTestBase;

/**
 * Each API version's shapes over real HTTP, as the official SDK's schemas (0.2.9) describe 2025-10-28 and
 * 2026-01-21, and as our own client reads 2026-05-22 (also when the header is absent).
 */
class ApiVersionsApiTest extends SimulatorHttpTestBase {

    private static final String V1 = "2025-10-28";
    private static final String V2 = "2026-01-21";
    private static final String V3 = "2026-05-22";

    private SimClient v(String version) {
        return sim.version(version);
    }

    private JsonNode ok(SimClient.Response response) {
        assertThat(response.status()).as(response.toString()).isBetween(200, 202);
        return response.json();
    }

    private void awaitRunning(String ref) {
        await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(20))
                .until(() -> "running".equals(cvm(ref).get("status").asText()) && !cvm(ref).get("in_progress")
                        .asBoolean());
    }

    /**
     * The Terraform provider's provider.go: the service emits the newer shapes only when X-Phala-Version asks for them;
     * without it, the oldest (integer ids). The lenient simulator answered the newest.
     */
    @Test
    void withoutTheHeaderTheOldestVersionAnswersWithIntegerIdsAndNamesItself() {
        createRunningApp("plain-app");
        SimClient.Response response = v(null).get(api("/cvms/plain-app"));
        assertThat(response.headers().firstValue("X-Phala-Version")).hasValue(V1);
        assertThat(response.json().get("id").isIntegralNumber()).as(response.toString()).isTrue();
        assertThat(ok(v(V1).get(api("/cvms/plain-app")))).isEqualTo(response.json());
        assertThat(v(V3).get(api("/cvms/plain-app")).headers().firstValue("X-Phala-Version")).hasValue(V3);
        assertThat(ok(v(V3).get(api("/cvms/plain-app"))).get("id").asText()).matches("^cvm_[0-9A-Za-z]{10}$");
    }

    @Test
    void anUnknownVersionIsRefusedBeforeAnythingHappens() {
        SimClient.Response response = v("2020-01-01").post(api("/cvms/provision"), Map.of("name", "never-made",
                "compose_file", Map.of("docker_compose_file", COMPOSE)));
        assertThat(response.status()).isEqualTo(400);
        assertThat(response.json().get("detail").asText()).isEqualTo("Unsupported API version '2020-01-01' in "
                + "X-Phala-Version; supported: 2025-10-28, 2026-01-21, 2026-05-22");
        assertThat(sim.get(api("/cvms/paginated")).json().get("total").asInt()).isZero();
    }

    @Test
    void integerIdsAreStablePerCvmAndServeEveryPathInEveryVersion() {
        JsonNode first = ok(v(V1).post(api("/cvms/provision"), Map.of("name", "int-ids",
                "compose_file", Map.of("docker_compose_file", COMPOSE))));
        JsonNode created = ok(v(V1).post(api("/cvms"), Map.of("app_id", first.get("app_id").asText(),
                "compose_hash", first.get("compose_hash").asText())));
        assertThat(created.get("id").isIntegralNumber()).as(created.toString()).isTrue();
        long id = created.get("id").asLong();
        String appId = created.get("app_id").asText();
        awaitNoCreation();
        JsonNode second = ok(v(V2).post(api("/apps/" + appId + "/instances"), Map.of("name", "int-ids-2")));
        assertThat(second.get("id").asLong()).isEqualTo(id + 1);
        awaitRunning("int-ids");

        for (String version : List.of(V1, V2, V3)) {
            assertThat(ok(v(version).get(api("/cvms/" + id))).get("name").asText()).as(version).isEqualTo("int-ids");
            assertThat(ok(v(version).get(api("/cvms/" + id + "/state"))).get("name").asText()).isEqualTo("int-ids");
            assertThat(ok(v(version).get(api("/cvms/app_" + appId))).get("name").asText()).isEqualTo("int-ids");
        }
        assertThat(ok(v(V1).get(api("/cvms/int-ids"))).get("id").asLong()).isEqualTo(id);
        assertThat(ok(v(V2).get(api("/cvms/int-ids"))).get("id").asText()).as("the hashed id").startsWith("cvm_");
        assertThat(ok(v(V3).get(api("/cvms/int-ids"))).get("id").asText()).startsWith("cvm_");

        JsonNode restarted = ok(v(V1).post(api("/cvms/" + id + "/restart"), Map.of("force", false)));
        assertThat(restarted.get("id").asLong()).isEqualTo(id);
        assertThat(restarted.get("status").asText()).isEqualTo("restarting");
        awaitRunning("int-ids");
        assertThat(ok(v(V1).get(api("/cvms/int-ids"))).get("id").asLong()).as("stable across restarts").isEqualTo(id);
    }

    @Test
    void version20251028IsTheLegacyShape() {
        JsonNode created = createApp("legacy-app");
        String appId = created.get("app_id").asText();
        awaitRunning("legacy-app");
        SimClient legacy = v(V1);

        JsonNode detail = ok(legacy.get(api("/cvms/legacy-app")));
        assertThat(detail.get("id").isIntegralNumber()).isTrue();
        assertThat(detail.get("teepod_id").asInt()).isEqualTo(1);
        assertThat(detail.get("teepod").get("name").asText()).isEqualTo("sim-node-1");
        assertThat(detail.get("memory").asInt()).as("MB").isEqualTo(2048);
        assertThat(detail.get("vcpu").asInt()).isEqualTo(1);
        assertThat(detail.get("base_image").asText()).isEqualTo("dstack-0.5.3");
        assertThat(detail.get("kms_info").get("slug").asText()).isEqualTo("phala-sim");
        assertThat(detail.get("machine_info").get("memory").asInt()).isEqualTo(2048);
        assertThat(detail.get("encrypted_env_pubkey").asText()).matches("^[0-9a-f]{64}$");
        assertThat(detail.has("resource")).isFalse();
        assertThat(detail.has("compose_hash")).isFalse();

        JsonNode listed = ok(legacy.get(api("/cvms/paginated"))).get("items").get(0);
        assertThat(listed.get("hosted").get("id").asText()).isEqualTo(created.get("vm_uuid").asText());
        assertThat(listed.get("hosted").get("uptime").asText()).matches("^\\d+s$|^\\d+m \\d+s$");
        assertThat(listed.get("managed_user").get("username").asText()).isEqualTo("simulator");
        assertThat(listed.has("id")).isFalse();
        assertThat(ok(legacy.get(api("/apps/" + appId + "/cvms"))).get(0).get("hosted").get("id").asText())
                .isEqualTo(created.get("vm_uuid").asText());

        JsonNode app = ok(legacy.get(api("/apps/" + appId)));
        assertThat(app.get("current_cvm").get("teepod_name").asText()).isEqualTo("sim-node-1");
        assertThat(app.get("current_cvm").get("memory").asInt()).isEqualTo(2048);

        JsonNode me = ok(legacy.get(api("/auth/me")));
        assertThat(me.get("username").asText()).isEqualTo("simulator");
        assertThat(me.get("team_name").asText()).isEqualTo("Simulator");
        assertThat(me.get("credits").isNumber()).isTrue();
    }

    @Test
    void version20260121HasReferencesAndTheHashedId() {
        JsonNode created = createApp("newer-app");
        awaitRunning("newer-app");
        JsonNode detail = ok(v(V2).get(api("/cvms/newer-app")));
        assertThat(detail.get("id").asText()).as("the SDK schema's comment: hashed CvmId").isEqualTo(created.get("id").asText());
        assertThat(detail.has("in_progress")).as("not in CvmInfoV20260121Schema").isFalse();
        assertThat(detail.get("node_info").get("object_type").asText()).isEqualTo("node");
        assertThat(detail.get("workspace").get("object_type").asText()).isEqualTo("workspace");
        assertThat(detail.get("creator").get("object_type").asText()).isEqualTo("user");
        assertThat(detail.get("resource").get("memory_in_gb").asInt()).isEqualTo(2);
        assertThat(detail.get("kms_info").get("encrypted_env_pubkey").asText()).matches("^[0-9a-f]{64}$");
        assertThat(detail.get("gateway_enabled").asBoolean()).isTrue();
        assertThat(detail.get("compose_file").get("docker_compose_file").asText()).isEqualTo(COMPOSE);
        assertThat(detail.get("endpoints").get(0).get("instance").asText()).startsWith("https://");

        JsonNode listed = ok(v(V2).get(api("/cvms/paginated"))).get("items").get(0);
        assertThat(listed.get("id").asText()).isEqualTo(detail.get("id").asText());
        assertThat(listed.has("compose_file")).as("detail only").isFalse();

        JsonNode me = ok(v(V2).get(api("/auth/me")));
        assertThat(me.get("user").get("username").asText()).isEqualTo("simulator");
        assertThat(me.get("workspace").get("slug").asText()).isEqualTo("simulator");
        assertThat(ok(v(V3).get(api("/auth/me")))).isEqualTo(me);
        assertThat(created.get("id").isIntegralNumber()).as("the default version of our helper is the newest")
                .isFalse();
    }

    @Test
    void theOlderVersionsNeverAnswerNullWhereTheSdkWantsAStringOrAbsence() {
        // the CVM stays "creating" (no instance_id) for the whole test
        assertThat(sim.put(SimClient.ADMIN + "/timings", Map.of("createMs", 60_000)).status()).isEqualTo(200);
        JsonNode created = createApp("fresh-app");
        String ref = created.get("name").asText();
        for (String version : List.of(V1, V2)) {
            // just created: no instance_id yet, not running
            JsonNode state = ok(v(version).get(api("/cvms/" + ref + "/state")));
            assertThat(state.get("id").asText()).isEqualTo(created.get("vm_uuid").asText());
            assertThat(StreamSupport.stream(((Iterable<JsonNode>) state::elements).spliterator(), false))
                    .as(version + " state %s", state).noneMatch(JsonNode::isNull);
            assertThat(state.has("instance_id")).isFalse();
            JsonNode network = ok(v(version).get(api("/cvms/" + ref + "/network")));
            assertThat(network.get("public_urls")).as("no URL with a null instance").isEmpty();
        }
    }

    @Test
    void theNewestVersionKeepsNullsAndUrlsWithoutAnInstance() {
        assertThat(sim.put(SimClient.ADMIN + "/timings", Map.of("createMs", 60_000)).status()).isEqualTo(200);
        JsonNode created = createApp("fresh-newest");
        JsonNode state = ok(sim.get(api("/cvms/fresh-newest/state")));
        assertThat(state.get("id").asText()).isEqualTo(created.get("id").asText());
        assertThat(state.get("instance_id").isNull()).isTrue();
        JsonNode network = ok(sim.get(api("/cvms/fresh-newest/network")));
        assertThat(network.get("public_urls").get(0).get("instance").isNull()).isTrue();
    }

    @Test
    void updatesAnswerAMessageInTheOlderVersionsOnly() {
        createRunningApp("update-app");
        JsonNode legacy = ok(v(V2).patchRaw(api("/cvms/update-app/docker-compose"), "text/yaml",
                COMPOSE.replace("nginx:1.27", "nginx:1.28")));
        assertThat(legacy.get("status").asText()).isEqualTo("in_progress");
        assertThat(legacy.get("message").asText()).isNotBlank();
        assertThat(legacy.get("correlation_id").asText()).isNotBlank();
        assertThat(legacy.has("requires_on_chain_hash")).isFalse();
        awaitRunning("update-app");

        String appId = cvm("update-app").get("app_id").asText();
        JsonNode env = ok(v(V1).patch(api("/cvms/update-app/envs"), Map.of("encrypted_env",
                sealedEnv(appId, Map.of("TOKEN", "t")), "env_keys", List.of("TOKEN"))));
        assertThat(env.get("allowed_envs_changed").asBoolean()).isTrue();
        awaitRunning("update-app");

        awaitRunning("update-app");
        JsonNode newest = ok(sim.patchRaw(api("/cvms/update-app/docker-compose"), "text/yaml", COMPOSE));
        assertThat(newest.get("requires_on_chain_hash").asBoolean()).isFalse();
        assertThat(newest.has("message")).isFalse();
    }

    @Test
    void revisionsNameTheirUserCvmAndWorkspaceInTheOlderVersions() {
        JsonNode created = createApp("rev-app");
        String appId = created.get("app_id").asText();
        JsonNode legacy = ok(v(V1).get(api("/apps/" + appId + "/revisions"))).get("revisions").get(0);
        assertThat(legacy.get("triggered_by").get("object_type").asText()).isEqualTo("user");
        assertThat(legacy.get("cvm").get("name").asText()).isEqualTo("rev-app");
        assertThat(legacy.get("cvm").get("id").asText()).matches("^\\d+$");
        assertThat(legacy.get("workspace").get("name").asText()).isEqualTo("Simulator");
        JsonNode newest = ok(sim.get(api("/apps/" + appId + "/revisions"))).get("revisions").get(0);
        assertThat(newest.get("triggered_by").asText()).isEqualTo("api");

        String revisionId = newest.get("revision_id").asText();
        JsonNode detail = ok(v(V2).get(api("/apps/" + appId + "/revisions/" + revisionId)));
        assertThat(detail.get("compose_file").get("docker_compose_file").asText()).isEqualTo(COMPOSE);
        assertThat(detail.get("encrypted_env").isTextual()).isTrue();
        JsonNode raw = ok(sim.get(api("/apps/" + appId + "/revisions/" + revisionId + "?raw_compose_file=true")));
        assertThat(raw.get("compose_file").asText()).contains("\"docker_compose_file\"");
        assertThat(sim.get(api("/apps/" + appId + "/revisions/rev_nope")).status()).isEqualTo(404);
    }

    @Test
    void listsPageAndFilterInEveryVersion() {
        createApp("list-one");
        createApp("list-two");
        JsonNode third = createApp("list-three");
        for (String version : List.of(V1, V2, V3)) {
            JsonNode cvms = ok(v(version).get(api("/cvms/paginated?page=1&page_size=2")));
            assertThat(cvms.get("total").asInt()).as(version).isEqualTo(3);
            assertThat(cvms.get("pages").asInt()).isEqualTo(2);
            assertThat(cvms.get("items")).hasSize(2);
            assertThat(cvms.get("items").get(0).get("name").asText()).as("newest first").isEqualTo("list-three");

            JsonNode apps = ok(v(version).get(api("/apps?page=2&page_size=2")));
            assertThat(apps.get("total").asInt()).isEqualTo(3);
            assertThat(apps.get("total_pages").asInt()).isEqualTo(2);
            assertThat(apps.get("dstack_apps")).hasSize(1);
            assertThat(apps.get("dstack_apps").get(0).get("name").asText()).isEqualTo("list-one");

            JsonNode searched = ok(v(version).get(api("/apps?search=" + third.get("vm_uuid").asText())));
            assertThat(searched.get("dstack_apps")).hasSize(1);
            assertThat(searched.get("dstack_apps").get(0).get("app_id").asText())
                    .isEqualTo(third.get("app_id").asText());
            assertThat(ok(v(version).get(api("/apps?status=stopped"))).get("total").asInt()).isZero();
            assertThat(ok(v(version).get(api("/apps?listed=true"))).get("total").asInt()).isZero();
        }
        assertThat(sim.get(api("/cvms/paginated?page_size=101")).status()).isEqualTo(422);
    }

    @Test
    void statsAreTheSameShapeInEveryVersion() {
        createRunningApp("stats-app");
        JsonNode stats = ok(sim.get(api("/cvms/stats-app/stats")));
        assertThat(stats.get("is_online").asBoolean()).isTrue();
        assertThat(stats.get("sysinfo").get("num_cpus").asInt()).isEqualTo(1);
        assertThat(stats.get("sysinfo").get("total_memory").asLong()).isEqualTo(2L * 1024 * 1024 * 1024);
        assertThat(stats.get("sysinfo").get("disks").get(1).get("total_size").asLong())
                .isEqualTo(20L * 1024 * 1024 * 1024);
        JsonNode legacy = ok(v(V1).get(api("/cvms/stats-app/stats")));
        assertThat(legacy.fieldNames()).toIterable().containsExactlyElementsOf(stats::fieldNames);
        ok(sim.post(api("/cvms/stats-app/stop"), null));
        await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(20))
                .until(() -> "stopped".equals(cvm("stats-app").get("status").asText()));
        JsonNode stopped = ok(sim.get(api("/cvms/stats-app/stats")));
        assertThat(stopped.get("is_online").asBoolean()).isFalse();
        assertThat(stopped.get("sysinfo").isNull()).isTrue();
    }

    @Test
    void theAttestationComposeFileIsJsonTextInTheOlderVersions() {
        createRunningApp("attest-app");
        JsonNode newest = ok(sim.get(api("/cvms/attest-app/attestation")));
        assertThat(newest.get("compose_file").isObject()).isTrue();
        JsonNode legacy = ok(v(V2).get(api("/cvms/attest-app/attestation")));
        assertThat(legacy.get("compose_file").asText()).isEqualTo(legacy.get("tcb_info").get("app_compose").asText());
        assertThat(legacy.get("tcb_info")).isEqualTo(newest.get("tcb_info"));
    }
}
