package com.statefulcvm.simulator.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.statefulcvm.connectors.phala.EnvEncryption;
import com.statefulcvm.connectors.phala.EnvKeyVerifier;
import com.statefulcvm.connectors.phala.model.EnvEncryptPubkey;
import com.statefulcvm.simulator.SimClient;
import com.statefulcvm.simulator.SimulatorHttpTestBase;

/**
 * The simulator refuses what the service refuses (issue 18): each test here fails against the lenient simulator that
 * came before it. Sources: the official SDK {@code @phala/cloud} 0.2.9 and the Terraform provider (docs/phala-api.md).
 */
class ServiceStrictnessApiTest extends SimulatorHttpTestBase {

    private static final String TX = "0x" + "7a".repeat(32);

    @Test
    void aComposeUpdateIsOnlyTakenAsYamlText() {
        createRunningApp("yaml-only-1");
        String before = cvm("yaml-only-1").get("compose_hash").asText();

        SimClient.Response json = sim.patch(api("/cvms/yaml-only-1/docker-compose"),
                Map.of("docker_compose_file", COMPOSE.replace("1.27", "1.28")));
        assertThat(json.status()).as("the SDK sends text/yaml; a JSON object is not a compose").isEqualTo(415);
        SimClient.Response notYaml = patchCompose("yaml-only-1", "this is: [not valid yaml");
        assertThat(notYaml.status()).isEqualTo(422);
        assertThat(notYaml.json().get("detail").get(0).get("msg").asText()).startsWith("Invalid YAML");
        assertThat(cvm("yaml-only-1").get("compose_hash").asText()).as("nothing changed").isEqualTo(before);
        assertThat(cvm("yaml-only-1").get("status").asText()).isEqualTo("running");

        assertThat(patchCompose("yaml-only-1", COMPOSE.replace("1.27", "1.28")).status()).isEqualTo(202);
    }

    @Test
    void anEncryptedEnvIsReallyOpenedWithTheAppsKey() {
        JsonNode first = createRunningApp("sealed-1");
        String appId = first.get("app_id").asText();
        JsonNode other = createRunningApp("sealed-other-1");
        String otherAppsKey = sim.get(api("/kms/phala-sim/pubkey/" + other.get("app_id").asText())).json()
                .get("public_key").asText();
        String sealedToAnotherApp = EnvEncryption.seal(Map.of("A", "1"), otherAppsKey).encryptedEnv();

        SimClient.Response wrongKey = sim.patch(api("/cvms/sealed-1/envs"), Map.of("encrypted_env", sealedToAnotherApp));
        assertThat(wrongKey.status()).isEqualTo(400);
        assertThat(wrongKey.json().get("detail").asText()).contains("cannot be decrypted");
        assertThat(sim.patch(api("/cvms/sealed-1/envs"), Map.of("encrypted_env", "00ff")).status()).isEqualTo(400);
        awaitNoCreation();
        assertThat(sim.post(api("/apps/" + appId + "/instances"), Map.of("encrypted_env", sealedToAnotherApp)).status())
                .as("a new instance too").isEqualTo(400);
        assertThat(cvm("sealed-1").get("status").asText()).isEqualTo("running");

        SimClient.Response right = sim.patch(api("/cvms/sealed-1/envs"),
                Map.of("encrypted_env", sealedEnv(appId, Map.of("A", "1"))));
        assertThat(right.status()).isEqualTo(202);
    }

    @Test
    void theKmsSignsTheEnvKeyAsDstackDoes() {
        String appId = createRunningApp("signed-1").get("app_id").asText();
        JsonNode answer = sim.get(api("/kms/phala-sim/pubkey/" + appId)).json();
        assertThat(answer.properties()).extracting(Map.Entry::getKey).containsExactlyInAnyOrder("public_key", "signature");
        String signer = sim.get(SimClient.ADMIN + "/kms").json().get("signer").asText();

        String verified = new EnvKeyVerifier(Set.of(signer)).verified(appId,
                new EnvEncryptPubkey(answer.get("public_key").asText(), answer.get("signature").asText()));

        assertThat(verified).as("the key the CVM's kms_info names").isEqualTo(sim.version("2026-01-21")
                .get(api("/cvms/signed-1")).json().get("kms_info").get("encrypted_env_pubkey").asText());
        assertThat(sim.get(api("/kms/other-kms/pubkey/" + appId)).status()).isEqualTo(404);
    }

    @Test
    void aCreateWhileAnotherCvmOfTheWorkspaceIsBeingCreatedAnswersTheObserved400() {
        assertThat(sim.put(SimClient.ADMIN + "/timings", Map.of("createMs", 60_000)).status()).isEqualTo(200);
        JsonNode first = createApp("serial-1");

        SimClient.Response second = sim.post(api("/apps/" + first.get("app_id").asText() + "/instances"), Map.of());
        assertThat(second.status()).isEqualTo(400);
        assertThat(second.json().get("detail").asText())
                .isEqualTo("The configuration parameters are not compatible with each other");
        SimClient.Response provision = sim.post(api("/cvms/provision"), Map.of("name", "serial-2",
                "compose_file", Map.of("docker_compose_file", COMPOSE)));
        assertThat(provision.status()).isEqualTo(400);
        assertThat(sim.get(api("/apps/" + first.get("app_id").asText() + "/cvms")).json()).hasSize(1);
    }

    @Test
    void namesTheSdksHostnameRuleRefusesAreRefused() {
        for (String name : List.of("db--one", "db-one-", "1db-one", "abcd", "db_one")) {
            SimClient.Response response = sim.post(api("/cvms/provision"), Map.of("name", name,
                    "compose_file", Map.of("docker_compose_file", COMPOSE)));
            assertThat(response.status()).as(name).isEqualTo(400);
            assertThat(response.json().get("error_code").asText()).isEqualTo("ERR-01-003");
        }
        assertThat(sim.post(api("/cvms/provision"), Map.of("name", "db-one-2",
                "compose_file", Map.of("docker_compose_file", COMPOSE))).status()).isEqualTo(200);
    }

    @Test
    void committingTheSameProvisionTwiceAnswersTheCvmItCreated() {
        JsonNode provisioned = sim.post(api("/cvms/provision"), Map.of("name", "twice-1",
                "compose_file", Map.of("docker_compose_file", COMPOSE))).json();
        Map<String, Object> commit = Map.of("app_id", provisioned.get("app_id").asText(),
                "compose_hash", provisioned.get("compose_hash").asText());

        JsonNode first = sim.post(api("/cvms"), commit).json();
        SimClient.Response again = sim.post(api("/cvms"), commit);

        assertThat(again.status()).isEqualTo(200);
        assertThat(again.json().get("vm_uuid").asText()).isEqualTo(first.get("vm_uuid").asText());
        assertThat(sim.get(api("/apps/" + provisioned.get("app_id").asText() + "/cvms")).json()).hasSize(1);
    }

    @Test
    void aCvmIsRenamedByItsHashedIdOnlyAndANameIsUniqueInTheWorkspace() {
        JsonNode first = createRunningApp("rename-a1");
        String appId = first.get("app_id").asText();
        JsonNode created = addInstance(appId, "rename-b1");
        awaitSettled("rename-b1", "running");

        assertThat(sim.patch(api("/cvms/" + created.get("vm_uuid").asText() + "/name"), Map.of("name", "rename-c1"))
                .status()).as("not by vm_uuid").isEqualTo(404);
        SimClient.Response taken = sim.patch(api("/cvms/" + created.get("id").asText() + "/name"),
                Map.of("name", "rename-a1"));
        assertThat(taken.status()).isEqualTo(400);
        assertThat(taken.json().get("detail").asText()).contains("already in use in this workspace");
        assertThat(sim.patch(api("/cvms/" + created.get("id").asText() + "/name"), Map.of("name", "bad--name"))
                .status()).isEqualTo(422);

        SimClient.Response renamed = sim.patch(api("/cvms/" + created.get("id").asText() + "/name"),
                Map.of("name", "rename-c1"));
        assertThat(renamed.status()).isEqualTo(204);
        assertThat(cvm("rename-c1").get("vm_uuid").asText()).isEqualTo(created.get("vm_uuid").asText());
    }

    @Test
    void anOnChainKmsAppAnswers465UntilTheUpdateIsCommittedWithATransactionHash() {
        JsonNode first = createRunningApp("chain-1");
        String appId = first.get("app_id").asText();
        assertThat(sim.post(SimClient.ADMIN + "/apps/" + appId + "/on-chain-kms", Map.of("enabled", true)).status())
                .isEqualTo(200);
        String newCompose = COMPOSE.replace("1.27", "1.29");

        SimClient.Response required = patchCompose("chain-1", newCompose);
        assertThat(required.status()).isEqualTo(465);
        Map<String, JsonNode> details = details(required.json());
        assertThat(details.keySet()).contains("compose_hash", "app_id", "device_id", "kms_info", "commit_token");
        assertThat(details.get("app_id").asText()).isEqualTo(appId);
        assertThat(details.get("kms_info").get("chain_id").asInt()).isEqualTo(8453);
        String composeHash = details.get("compose_hash").asText();
        assertThat(cvm("chain-1").get("compose_hash").asText()).as("not applied").isNotEqualTo(composeHash);

        String token = details.get("commit_token").asText();
        mine(appId, composeHash, TX);
        assertThat(sim.post(api("/cvms/chain-1/commit-update"), Map.of("token", "forged", "compose_hash", composeHash,
                "transaction_hash", TX)).status()).isEqualTo(400);
        assertThat(sim.post(api("/cvms/chain-1/commit-update"), Map.of("token", token, "compose_hash", composeHash,
                "transaction_hash", "not-a-hash")).status()).isEqualTo(400);
        SimClient.Response committed = sim.post(api("/cvms/chain-1/commit-update"), Map.of("token", token,
                "compose_hash", composeHash, "transaction_hash", TX));
        assertThat(committed.status()).isEqualTo(202);
        assertThat(committed.json().get("status").asText()).isEqualTo("in_progress");
        assertThat(committed.json().get("correlation_id").asText()).isNotBlank();
        assertThat(awaitSettled("chain-1", "running").get("compose_hash").asText()).isEqualTo(composeHash);
        assertThat(sim.post(api("/cvms/chain-1/commit-update"), Map.of("token", token, "compose_hash", composeHash,
                "transaction_hash", TX)).status()).as("a token is used once").isEqualTo(400);

        // phase 2 in the header form of the SDK's updateDockerCompose
        String third = COMPOSE.replace("1.27", "1.30");
        String thirdHash = details(patchCompose("chain-1", third).json()).get("compose_hash").asText();
        String thirdTx = mine(appId, thirdHash, null);
        SimClient.Response withHeaders = sim.send("PATCH", api("/cvms/chain-1/docker-compose"), "text/yaml", third,
                API_KEY, Map.of("X-Compose-Hash", thirdHash, "X-Transaction-Hash", thirdTx));
        assertThat(withHeaders.status()).isEqualTo(202);
    }

    @Test
    void aCommitWithATransactionTheChainDoesNotKnowAnswers468AndUsesUpItsToken() {
        String appId = onChainApp("chain-468");
        Map<String, JsonNode> details = details(patchCompose("chain-468", COMPOSE.replace("1.27", "1.29")).json());
        String composeHash = details.get("compose_hash").asText();
        String token = details.get("commit_token").asText();

        SimClient.Response refused = sim.post(api("/cvms/chain-468/commit-update"), Map.of("token", token,
                "compose_hash", composeHash, "transaction_hash", TX));

        assertThat(refused.status()).isEqualTo(468);
        assertThat(refused.json().get("detail").asText()).contains("not found on-chain", composeHash);
        mine(appId, composeHash, TX);
        assertThat(sim.post(api("/cvms/chain-468/commit-update"), Map.of("token", token, "compose_hash", composeHash,
                "transaction_hash", TX)).status()).as("the refused commit used its token up").isEqualTo(400);
        SimClient.Response withHeaders = sim.send("PATCH", api("/cvms/chain-468/docker-compose"), "text/yaml",
                COMPOSE.replace("1.27", "1.29"), API_KEY,
                Map.of("X-Compose-Hash", composeHash, "X-Transaction-Hash", "0x" + "01".repeat(32)));
        assertThat(withHeaders.status()).as("the header form, an unknown transaction").isEqualTo(468);
        assertThat(cvm("chain-468").get("compose_hash").asText()).isNotEqualTo(composeHash);
    }

    @Test
    void aCommitWithATransactionThatDoesNotVerifyAnswers467() {
        String appId = onChainApp("chain-467");
        String compose = COMPOSE.replace("1.27", "1.29");
        Map<String, JsonNode> details = details(patchCompose("chain-467", compose).json());
        String composeHash = details.get("compose_hash").asText();
        String reverted = "0x" + "67".repeat(32);
        sim.post(SimClient.ADMIN + "/apps/" + appId + "/on-chain-kms/transactions",
                Map.of("composeHash", composeHash, "transactionHash", reverted, "verifies", false));
        String anotherHash = mine(appId, "cd".repeat(32), null);

        SimClient.Response refused = sim.post(api("/cvms/chain-467/commit-update"), Map.of("token",
                details.get("commit_token").asText(), "compose_hash", composeHash, "transaction_hash", reverted));
        SimClient.Response wrongHash = sim.send("PATCH", api("/cvms/chain-467/docker-compose"), "text/yaml", compose,
                API_KEY, Map.of("X-Compose-Hash", composeHash, "X-Transaction-Hash", anotherHash));

        assertThat(refused.status()).isEqualTo(467);
        assertThat(refused.json().get("detail").asText()).contains("verification failed", reverted);
        assertThat(wrongHash.status()).as("a transaction that registered another hash").isEqualTo(467);
    }

    @Test
    void aCommitOfAnExpiredRegistrationAnswers466() {
        String appId = onChainApp("chain-466");
        String compose = COMPOSE.replace("1.27", "1.29");
        Map<String, JsonNode> details = details(patchCompose("chain-466", compose).json());
        String composeHash = details.get("compose_hash").asText();
        mine(appId, composeHash, TX);
        sim.post(SimClient.ADMIN + "/apps/" + appId + "/on-chain-kms/transactions",
                Map.of("composeHash", composeHash, "transactionHash", TX, "expired", true));

        SimClient.Response refused = sim.post(api("/cvms/chain-466/commit-update"), Map.of("token",
                details.get("commit_token").asText(), "compose_hash", composeHash, "transaction_hash", TX));

        assertThat(refused.status()).isEqualTo(466);
        assertThat(refused.json().get("detail").asText()).contains("expired");
        Map<String, JsonNode> again = details(patchCompose("chain-466", compose).json());
        assertThat(again.get("onchain_status").get("compose_hash_allowed").asBoolean())
                .as("an expired registration allows nothing").isFalse();
        String fresh = mine(appId, composeHash, null);
        assertThat(sim.post(api("/cvms/chain-466/commit-update"), Map.of("token", again.get("commit_token").asText(),
                "compose_hash", composeHash, "transaction_hash", fresh)).status()).isEqualTo(202);
    }

    @Test
    void aNewInstanceOfAnOnChainKmsAppAnswers465UntilItIsCommitted() {
        String appId = onChainApp("chain-new");
        int before = sim.get(api("/apps/" + appId + "/cvms")).json().size();

        SimClient.Response required = sim.post(api("/apps/" + appId + "/instances"), Map.of());

        assertThat(required.status()).isEqualTo(465);
        Map<String, JsonNode> details = details(required.json());
        assertThat(details.keySet()).contains("compose_hash", "app_id", "device_id", "kms_info", "commit_token",
                "onchain_status");
        assertThat(details.get("api_commit_url").asText()).isEqualTo("/api/v1/apps/" + appId + "/instances");
        assertThat(sim.get(api("/apps/" + appId + "/cvms")).json().size()).as("nothing created").isEqualTo(before);
        String composeHash = details.get("compose_hash").asText();
        assertThat(sim.post(api("/apps/" + appId + "/instances"), Map.of("token", details.get("commit_token").asText(),
                "compose_hash", composeHash, "transaction_hash", TX)).status()).isEqualTo(468);

        Map<String, JsonNode> again = details(sim.post(api("/apps/" + appId + "/instances"), Map.of()).json());
        mine(appId, composeHash, TX);
        SimClient.Response created = sim.post(api("/apps/" + appId + "/instances"), Map.of("token",
                again.get("commit_token").asText(), "compose_hash", composeHash, "transaction_hash", TX));

        assertThat(created.status()).isEqualTo(200);
        assertThat(created.json().get("vm_uuid").asText()).isNotBlank();
        assertThat(sim.get(api("/apps/" + appId + "/cvms")).json().size()).isEqualTo(before + 1);
    }

    /** A running app whose KMS is on chain; its app id. */
    private String onChainApp(String name) {
        String appId = createRunningApp(name).get("app_id").asText();
        assertThat(sim.post(SimClient.ADMIN + "/apps/" + appId + "/on-chain-kms", Map.of("enabled", true)).status())
                .isEqualTo(200);
        return appId;
    }

    /** Mines addComposeHash(composeHash) on the app's contract; {@code transaction} null: the simulator makes one up. */
    private String mine(String appId, String composeHash, String transaction) {
        Map<String, Object> body = new java.util.HashMap<>(Map.of("composeHash", composeHash));
        if (transaction != null) {
            body.put("transactionHash", transaction);
        }
        SimClient.Response mined = sim.post(SimClient.ADMIN + "/apps/" + appId + "/on-chain-kms/transactions", body);
        assertThat(mined.status()).isEqualTo(200);
        return mined.json().get("transactionHash").asText();
    }

    @Test
    void quotasAreReportedAndACreateBeyondThemIsRefused() {
        createRunningApp("quota-1");
        JsonNode quotas = sim.get(api("/workspaces/simulator/quotas")).json();
        assertThat(quotas.get("quotas").get("vm_slots").get("remaining").asInt())
                .isEqualTo(quotas.get("quotas").get("vm_slots").get("limit").asInt() - 1);
        sim.put(SimClient.ADMIN + "/quotas", Map.of("vmSlots", 1));

        SimClient.Response refused = sim.post(api("/cvms/provision"), Map.of("name", "quota-2",
                "compose_file", Map.of("docker_compose_file", COMPOSE)));

        assertThat(refused.status()).isEqualTo(400);
        assertThat(refused.json().get("error_code").asText()).isEqualTo("ERR-02-015");
        assertThat(sim.get(api("/workspaces/simulator/quotas")).json().get("quotas").get("vm_slots").get("remaining")
                .asInt()).isZero();
    }

    private static Map<String, JsonNode> details(JsonNode body) {
        Map<String, JsonNode> fields = new java.util.LinkedHashMap<>();
        body.get("detail").get("details").forEach(d -> fields.put(d.get("field").asText(), d.get("value")));
        return fields;
    }
}
