package com.statefulcvm.simulator.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.statefulcvm.simulator.SimClient;
import com.statefulcvm.simulator.SimulatorHttpTestBase;

class CvmLifecycleApiTest extends SimulatorHttpTestBase {

    private static final String HEX40 = "^[0-9a-f]{40}$";

    @Test
    void provisionCommitAndInstancesBootWithTheirOwnInstanceIds() {
        SimClient.Response provision = sim.post(api("/cvms/provision"), Map.of(
                "name", "shop-db-1", "compose_file", Map.of("docker_compose_file", COMPOSE)));
        assertThat(provision.status()).isEqualTo(200);
        JsonNode provisioned = provision.json();
        assertThat(provisioned.get("app_id").asText()).matches(HEX40);
        assertThat(provisioned.get("compose_hash").asText()).matches("^[0-9a-f]{64}$");
        assertThat(provisioned.get("app_env_encrypt_pubkey").asText()).isNotBlank();
        assertThat(provisioned.get("os_image_hash").asText()).isNotBlank();
        assertThat(provisioned.get("instance_type").asText()).isEqualTo("tdx.small");
        assertThat(provisioned.get("teepod_id").asInt()).as("the SDK reads it as node_id").isEqualTo(1);
        String appId = provisioned.get("app_id").asText();
        assertThat(sim.get(api("/apps/" + appId)).status()).as("provision creates nothing").isEqualTo(404);

        JsonNode first = sim.post(api("/cvms"), Map.of("app_id", appId,
                "compose_hash", provisioned.get("compose_hash").asText())).json();
        assertThat(first.get("id").asText()).matches("^cvm_[0-9A-Za-z]{10}$");
        assertThat(first.get("name").asText()).isEqualTo("shop-db-1");
        assertThat(first.get("status").asText()).isEqualTo("creating");
        assertThat(first.get("instance_id").isNull()).isTrue();
        assertThat(first.get("in_progress").asBoolean()).isTrue();
        assertThat(first.get("vm_uuid").asText()).matches("^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$");
        assertThat(first.get("compose_hash").asText()).isEqualTo(provisioned.get("compose_hash").asText());

        JsonNode second = addInstance(appId, "shop-db-2");
        assertThat(second.get("status").asText()).isEqualTo("pending");
        assertThat(second.get("instance_id").isNull()).isTrue();
        assertThat(second.get("compose_hash").asText()).as("copies the app's compose")
                .isEqualTo(first.get("compose_hash").asText());
        awaitNoCreation();
        JsonNode third = sim.post(api("/apps/app_" + appId + "/instances"), Map.of()).json();
        assertThat(third.get("name").asText()).as("the SDK's default CVM name").matches("^dstack-app-[0-9a-z]{5}$");

        JsonNode a = awaitSettled("shop-db-1", "running");
        JsonNode b = awaitSettled("shop-db-2", "running");
        JsonNode c = awaitSettled(third.get("name").asText(), "running");
        assertThat(Set.of(a.get("instance_id").asText(), b.get("instance_id").asText(), c.get("instance_id").asText()))
                .hasSize(3)
                .allMatch(id -> id.matches(HEX40));
        assertThat(a.get("gateway").get("base_domain").asText()).isEqualTo("test.phala.local");
        assertThat(a.get("compose_file").get("docker_compose_file").asText()).isEqualTo(COMPOSE);
        assertThat(a.get("endpoints").get(0).get("instance").asText())
                .isEqualTo("https://" + a.get("instance_id").asText() + "-8080.test.phala.local");

        JsonNode app = sim.get(api("/apps/" + appId)).json();
        assertThat(app.get("app_id").asText()).isEqualTo(appId);
        assertThat(app.get("name").asText()).isEqualTo("shop-db-1");
        assertThat(app.get("cvm_count").asInt()).isEqualTo(3);
        assertThat(app.get("current_cvm").get("name").asText()).isEqualTo("shop-db-1");
        assertThat(app.get("kms_type").asText()).isNotBlank();
        assertThat(app.get("created_at").asText()).isNotBlank();
        assertThat(sim.get(api("/apps/" + appId + "/cvms")).json()).hasSize(3);

        String vmUuid = a.get("vm_uuid").asText();
        assertThat(cvm(vmUuid.replace("-", "")).get("name").asText()).isEqualTo("shop-db-1");
        assertThat(cvm(vmUuid).get("name").asText()).isEqualTo("shop-db-1");
        assertThat(cvm(a.get("id").asText()).get("name").asText()).isEqualTo("shop-db-1");

        JsonNode state = sim.get(api("/cvms/shop-db-1/state")).json();
        assertThat(state.get("status").asText()).isEqualTo("running");
        assertThat(state.get("instance_id").asText()).isEqualTo(a.get("instance_id").asText());
        JsonNode batch = sim.post(api("/status/batch"), Map.of("vm_uuids", List.of(vmUuid, "unknown"))).json();
        assertThat(batch.get(vmUuid).get("status").asText()).isEqualTo("running");
        assertThat(batch.get(vmUuid).get("in_progress").asBoolean()).isFalse();
        assertThat(batch.has("unknown")).isFalse();
        JsonNode network = sim.get(api("/cvms/shop-db-1/network")).json();
        assertThat(network.get("is_online").asBoolean()).isTrue();
    }

    @Test
    void instanceIdStaysAcrossRestartStopStartAndUpdate() {
        String instanceId = createRunningApp("keeper-1").get("instance_id").asText();

        JsonNode restarting = sim.post(api("/cvms/keeper-1/restart"), Map.of("force", false)).json();
        assertThat(restarting.get("status").asText()).isEqualTo("restarting");
        assertThat(awaitSettled("keeper-1", "running").get("instance_id").asText()).isEqualTo(instanceId);

        assertThat(sim.post(api("/cvms/keeper-1/stop"), null).json().get("status").asText()).isEqualTo("stopping");
        assertThat(awaitSettled("keeper-1", "stopped").get("instance_id").asText()).isEqualTo(instanceId);
        assertThat(sim.post(api("/cvms/keeper-1/start"), null).json().get("status").asText()).isEqualTo("starting");
        awaitSettled("keeper-1", "running");
        assertThat(sim.post(api("/cvms/keeper-1/shutdown"), null).json().get("status").asText())
                .isEqualTo("shutting_down");
        awaitSettled("keeper-1", "stopped");
        sim.post(api("/cvms/keeper-1/start"), null);
        awaitSettled("keeper-1", "running");

        patchCompose("keeper-1", COMPOSE + "# v2\n");
        assertThat(awaitSettled("keeper-1", "running").get("instance_id").asText()).isEqualTo(instanceId);

        assertThat(transitions("keeper-1")).containsExactly(
                "null->creating", "creating->starting", "starting->running",
                "running->restarting", "restarting->running",
                "running->stopping", "stopping->stopped", "stopped->starting", "starting->running",
                "running->shutting_down", "shutting_down->stopped", "stopped->starting", "starting->running",
                "running->updating", "updating->running");
    }

    @Test
    void composeUpdateGivesNewHashRevisionAndUpdatingEvents() {
        JsonNode before = createRunningApp("updater-1");
        String appId = before.get("app_id").asText();
        String newCompose = COMPOSE.replace("nginx:1.27", "nginx:1.28");

        SimClient.Response accepted = patchCompose("updater-1", newCompose);
        assertThat(accepted.status()).isEqualTo(202);
        assertThat(accepted.json().get("status").asText()).isEqualTo("in_progress");
        String correlationId = accepted.json().get("correlation_id").asText();
        assertThat(correlationId).isNotBlank();

        JsonNode during = cvm("updater-1");
        String newHash = during.get("compose_hash").asText();
        assertThat(newHash).isNotEqualTo(before.get("compose_hash").asText());
        assertThat(during.get("compose_file").get("docker_compose_file").asText()).isEqualTo(newCompose);
        assertThat(during.get("status").asText()).isEqualTo("updating");
        assertThat(during.get("in_progress").asBoolean()).isTrue();
        assertThat(during.get("progress").get("target").asText()).isEqualTo("running");
        assertThat(during.get("progress").get("correlation_id").asText()).isEqualTo(correlationId);

        JsonNode after = awaitSettled("updater-1", "running");
        assertThat(after.get("compose_hash").asText()).isEqualTo(newHash);
        assertThat(after.get("progress").get("correlation_id").isNull()).isTrue();

        JsonNode revisions = sim.get(api("/apps/" + appId + "/revisions")).json();
        assertThat(revisions.get("total").asInt()).isEqualTo(2);
        JsonNode newest = revisions.get("revisions").get(0);
        assertThat(newest.get("compose_hash").asText()).isEqualTo(newHash);
        assertThat(newest.get("operation_type").asText()).isEqualTo("update_compose");
        assertThat(newest.get("triggered_by").asText()).isEqualTo("api");
        assertThat(newest.get("vm_uuid").asText()).isEqualTo(before.get("vm_uuid").asText());
        assertThat(revisions.get("revisions").get(1).get("operation_type").asText()).isEqualTo("create");
        assertThat(transitions("updater-1")).endsWith("starting->running", "running->updating", "updating->running");

        // the same compose again is not free: an update all the same (the CVM restarts), without a new revision
        int eventCount = transitions("updater-1").size();
        SimClient.Response again = patchCompose("updater-1", newCompose);
        assertThat(again.status()).isEqualTo(202);
        assertThat(again.json().get("status").asText()).isEqualTo("in_progress");
        awaitSettled("updater-1", "running");
        assertThat(transitions("updater-1")).hasSize(eventCount + 2).endsWith("running->updating", "updating->running");
        assertThat(sim.get(api("/apps/" + appId + "/revisions")).json().get("total").asInt()).isEqualTo(2);
    }

    @Test
    void sameComposeTextGivesSameHashOnEveryCvm() {
        JsonNode first = createRunningApp("hasher-1");
        addInstance(first.get("app_id").asText(), "hasher-2");
        awaitSettled("hasher-2", "running");
        String changed = COMPOSE + "    environment:\n      - MODE=fast\n";

        SimClient.Response yaml = sim.patchRaw(api("/cvms/hasher-1/docker-compose"), "text/yaml", changed);
        assertThat(yaml.status()).as(yaml.toString()).isEqualTo(202);
        assertThat(yaml.json().get("status").asText()).isEqualTo("in_progress");
        SimClient.Response other = patchCompose("hasher-2", changed);
        assertThat(other.status()).isEqualTo(202);

        String hash1 = awaitSettled("hasher-1", "running").get("compose_hash").asText();
        String hash2 = awaitSettled("hasher-2", "running").get("compose_hash").asText();
        assertThat(hash1).isEqualTo(hash2).isNotEqualTo(first.get("compose_hash").asText());
    }

    @Test
    void secondOperationWhileOneIsInProgressAnswers409WithoutErrorCode() {
        createRunningApp("busy-cvm-1");
        sim.put(SimClient.ADMIN + "/timings", Map.of("updateMs", 3000));
        assertThat(patchCompose("busy-cvm-1", "services: {v2: {}}\n").status())
                .isEqualTo(202);

        List<SimClient.Response> refused = List.of(
                sim.post(api("/cvms/busy-cvm-1/restart"), null),
                sim.post(api("/cvms/busy-cvm-1/stop"), null),
                sim.post(api("/cvms/busy-cvm-1/start"), null),
                sim.post(api("/cvms/busy-cvm-1/shutdown"), null),
                patchCompose("busy-cvm-1", "services: {v3: {}}\n"),
                sim.patch(api("/cvms/busy-cvm-1/envs"), Map.of("encrypted_env", "00ff")),
                sim.delete(api("/cvms/busy-cvm-1")));
        assertThat(refused).allSatisfy(response -> {
            assertThat(response.status()).isEqualTo(409);
            assertThat(response.json().get("detail").asText()).isEqualTo("Another operation is in progress on this CVM");
            assertThat(response.json().has("error_code")).isFalse();
        });
        assertThat(cvm("busy-cvm-1").get("compose_file").get("docker_compose_file").asText())
                .isEqualTo("services: {v2: {}}\n");
    }

    @Test
    void startOfRunningAndStopOfStoppedAreRefusedWith400() {
        createRunningApp("steady-1");
        SimClient.Response start = sim.post(api("/cvms/steady-1/start"), null);
        assertThat(start.status()).isEqualTo(400);
        assertThat(start.json().get("detail").asText()).isEqualTo("CVM is already running");

        sim.post(api("/cvms/steady-1/stop"), null);
        awaitSettled("steady-1", "stopped");
        SimClient.Response stop = sim.post(api("/cvms/steady-1/stop"), null);
        assertThat(stop.status()).isEqualTo(400);
        assertThat(stop.json().get("detail").asText()).isEqualTo("CVM is already stopped");
        assertThat(sim.post(api("/cvms/steady-1/restart"), null).status()).isEqualTo(400);
    }

    @Test
    void deletedCvmIsGoneAndLeavesTheAppList() {
        JsonNode first = createRunningApp("doomed-1");
        String appId = first.get("app_id").asText();
        addInstance(appId, "doomed-2");
        awaitSettled("doomed-2", "running");

        SimClient.Response deleting = sim.delete(api("/cvms/doomed-2"));
        assertThat(deleting.status()).isEqualTo(200);
        assertThat(deleting.json().get("status").asText()).isEqualTo("deleting");
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
                .until(() -> sim.get(api("/cvms/doomed-2")).status() == 404);
        assertThat(sim.get(api("/cvms/doomed-2")).json().get("detail").asText()).isEqualTo("CVM not found");
        JsonNode cvms = sim.get(api("/apps/" + appId + "/cvms")).json();
        assertThat(cvms).hasSize(1);
        assertThat(cvms.get(0).get("name").asText()).isEqualTo("doomed-1");
        assertThat(sim.get(api("/apps/" + appId)).json().get("cvm_count").asInt()).isEqualTo(1);
        assertThat(transitions("doomed-2")).endsWith("running->deleting", "deleting->deleted");
        // a new CVM in the same slot is a new CVM with a new instance_id
        addInstance(appId, "doomed-2");
        JsonNode reborn = awaitSettled("doomed-2", "running");
        assertThat(reborn.get("vm_uuid").asText()).isNotEqualTo(first.get("vm_uuid").asText());
    }

    @Test
    void envUpdateKeepsComposeHashUnlessTheKeysChange() {
        JsonNode before = createRunningApp("env-cvm-1");
        String hash = before.get("compose_hash").asText();
        String appId0 = before.get("app_id").asText();
        String first = sealedEnv(appId0, Map.of("MODE", "a"));

        SimClient.Response values = sim.patch(api("/cvms/env-cvm-1/envs"),
                Map.of("encrypted_env", first, "env_keys", List.of()));
        assertThat(values.status()).isEqualTo(202);
        assertThat(values.json().get("status").asText()).isEqualTo("in_progress");
        assertThat(awaitSettled("env-cvm-1", "running").get("compose_hash").asText()).isEqualTo(hash);
        // new values under the same names: the same compose hash, a new revision carrying the env it was deployed with
        JsonNode valuesOnly = sim.get(api("/apps/" + appId0 + "/revisions")).json().get("revisions").get(0);
        assertThat(valuesOnly.get("operation_type").asText()).isEqualTo("update_env");
        assertThat(valuesOnly.get("compose_hash").asText()).isEqualTo(hash);
        assertThat(sim.get(api("/apps/" + appId0 + "/revisions/" + valuesOnly.get("revision_id").asText())).json()
                .get("encrypted_env").asText()).isEqualTo(first);

        // the same env again is an update all the same
        assertThat(sim.patch(api("/cvms/env-cvm-1/envs"), Map.of("encrypted_env", first)).json().get("status")
                .asText()).isEqualTo("in_progress");
        awaitSettled("env-cvm-1", "running");

        String second = sealedEnv(appId0, Map.of("DB_PASSWORD", "secret"));
        sim.patch(api("/cvms/env-cvm-1/envs"), Map.of("encrypted_env", second, "env_keys", List.of("DB_PASSWORD")));
        JsonNode after = awaitSettled("env-cvm-1", "running");
        assertThat(after.get("compose_hash").asText()).isNotEqualTo(hash);
        assertThat(after.get("compose_file").get("allowed_envs").get(0).asText()).isEqualTo("DB_PASSWORD");
        assertThat(transitions("env-cvm-1")).endsWith("running->updating", "updating->running");
        // the app revision the new keys made carries the encrypted env the CVM was deployed with
        String appId = after.get("app_id").asText();
        JsonNode newest = sim.get(api("/apps/" + appId + "/revisions")).json().get("revisions").get(0);
        assertThat(newest.get("operation_type").asText()).isEqualTo("update_env");
        assertThat(sim.get(api("/apps/" + appId + "/revisions/" + newest.get("revision_id").asText())).json()
                .get("encrypted_env").asText()).isEqualTo(second);
    }

    @Test
    void redeployRollsChosenCvmsToARevision() {
        JsonNode first = createRunningApp("roller-1");
        String appId = first.get("app_id").asText();
        JsonNode second = addInstance(appId, "roller-2");
        awaitSettled("roller-2", "running");
        patchCompose("roller-1", "services: {}\n");
        String targetHash = awaitSettled("roller-1", "running").get("compose_hash").asText();
        JsonNode revision = sim.get(api("/apps/" + appId + "/revisions?page=1&page_size=1")).json();
        assertThat(revision.get("total_pages").asInt()).isEqualTo(3);
        String revisionId = revision.get("revisions").get(0).get("revision_id").asText();

        SimClient.Response redeploy = sim.post(api("/apps/" + appId + "/revisions/" + revisionId + "/redeploy"),
                Map.of("vm_uuids", List.of(second.get("vm_uuid").asText())));
        assertThat(redeploy.status()).isEqualTo(202);
        assertThat(redeploy.json().get("status").asText()).isEqualTo("in_progress");
        assertThat(cvm("roller-2").get("status").asText()).isEqualTo("updating");
        assertThat(awaitSettled("roller-2", "running").get("compose_hash").asText()).isEqualTo(targetHash);
        assertThat(sim.get(api("/apps/" + appId + "/revisions")).json().get("revisions").get(0)
                .get("operation_type").asText()).isEqualTo("redeploy");
        assertThat(sim.post(api("/apps/" + appId + "/revisions/rev_nope/redeploy"),
                Map.of("vm_uuids", List.of(second.get("vm_uuid").asText()))).status()).isEqualTo(404);
    }

    @Test
    void attestationCarriesTheCvmsRealIdentifiers() {
        JsonNode cvm = createRunningApp("attested-1");
        JsonNode attestation = sim.get(api("/cvms/attested-1/attestation")).json();
        assertThat(attestation.get("is_online").asBoolean()).isTrue();
        JsonNode tcb = attestation.get("tcb_info");
        assertThat(tcb.get("rtmr3").asText()).matches("^[0-9a-f]{96}$");
        Map<String, String> payloads = new java.util.HashMap<>();
        tcb.get("event_log").forEach(event -> {
            if (event.get("imr").asInt() == 3) {
                assertThat(event.get("event_type").asLong()).isEqualTo(0x08000001L);
                payloads.put(event.get("event").asText(), event.get("event_payload").asText());
            }
        });
        assertThat(payloads).containsEntry("app-id", cvm.get("app_id").asText())
                .containsEntry("compose-hash", cvm.get("compose_hash").asText())
                .containsEntry("instance-id", cvm.get("instance_id").asText())
                .containsKeys("system-preparing", "boot-mr-done", "os-image-hash", "key-provider", "storage-fs",
                        "system-ready");
        assertThat(tcb.get("app_compose").asText()).contains("docker_compose_file");
    }
}
