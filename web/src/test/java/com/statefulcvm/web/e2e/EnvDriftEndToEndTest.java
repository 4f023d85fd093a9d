package com.statefulcvm.web.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.statefulcvm.connectors.phala.EnvEncryption;
import com.statefulcvm.fleet.InstanceRegistry;
import com.statefulcvm.fleet.drift.EnvRegistry;
import com.statefulcvm.fleet.drift.SlotEnv;
import com.statefulcvm.simulator.cloud.SimulatedKms;
import com.statefulcvm.web.E2eSupport;
import com.statefulcvm.web.RolloutDriver;
import com.statefulcvm.web.SimulatorView;
import org.camunda.bpm.engine.HistoryService;
import org.camunda.bpm.engine.RuntimeService;
import org.camunda.bpm.engine.TaskService;
import org.camunda.bpm.engine.runtime.ProcessInstance;
import org.camunda.bpm.engine.task.Task;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.client.TestRestTemplate;
import org.springframework.http.HttpEntity;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Env values changed behind our back on admit-env (health monitor on), over real HTTP to the embedded simulator, as Terraform's provider and
 * the SDK's {@code updateCvmEnvs} change them ({@code PATCH /cvms/{id}/envs}: new values, the same names, so the
 * compose hash does not move and attestation alone cannot see it). Our own env rollout is recognised as ours; the
 * change behind our back leaves the set Drifted with who changed which slot, never a value, and stops nothing; the
 * approver's "rollback" rolls the recorded env out again through rollout.bpmn, to that slot only, and "adopt" keeps
 * what runs. The rollback's marker is the application's alone: a user's start with it is refused.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.DEFINED_PORT)
@ActiveProfiles({"e2e", "admission"})
class EnvDriftEndToEndTest {

    private static final String SET = "admit-env";
    private static final ObjectMapper JSON = new ObjectMapper();

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        E2eSupport.onFreePortWithDatabase(registry, "env-drift-e2e");
    }

    @Autowired
    TestRestTemplate http;
    @Autowired
    TaskService tasks;
    @Autowired
    HistoryService history;
    @Autowired
    RuntimeService runtime;
    @Autowired
    InstanceRegistry registry;
    @Autowired
    EnvRegistry envs;

    @Test
    void anEnvChangedBehindOurBackIsDriftedWithinTheBudgetRolledBackToTheRecordedEnvOrAdopted() throws Exception {
        RolloutDriver driver = new RolloutDriver(http, tasks, history, SET);
        driver.awaitAllRunning(3);
        SimulatorView simulator = new SimulatorView(http);

        // --- our own env rollout: each slot's env is the one we sent, no drift
        Map<String, String> ours = env("ours");
        ResponseEntity<String> created = driver.admin().postForEntity("/api/replica-sets/" + SET + "/rollouts",
                RolloutDriver.json(Map.of("envs", ours, "updatePolicy", Map.of("progressDeadlineSeconds", 300))), String.class);
        assertThat(created.getStatusCode()).as(created.getBody()).isEqualTo(HttpStatus.CREATED);
        String rollout = JSON.readTree(created.getBody()).get("processInstanceId").asText();
        driver.approve(rollout);
        awaitCompleted(rollout);
        await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
            List<SlotEnv> slots = envs.slots(SET);
            assertThat(slots).hasSize(3).allSatisfy(s -> {
                assertThat(s.drifted()).as(s.toString()).isFalse();
                assertThat(s.known().source()).as("confirmed as the rollout's").isEqualTo("rollout " + rollout);
            });
        });
        assertThat(condition(set(), "Drifted").get("status").asBoolean()).isFalse();

        // --- behind our back: the values of admit-env-1 changed, the names kept
        Map<String, String> theirs = env("theirs");
        long before = simulator.lastEventSeq();
        awaitBootDistinguishable(1);
        patchEnvs(SET + "-1", theirs);
        JsonNode drifted = await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(200))
                .until(this::set, s -> condition(s, "Drifted").get("status").asBoolean());
        System.out.println("admit-env after the env change behind our back: " + condition(drifted, "Drifted"));
        assertThat(condition(drifted, "Drifted").get("reason").asText()).contains("admit-env-1 runs env values changed behind our back");
        JsonNode one = drifted.get("instances").get(1);
        assertThat(one.get("envDrift").asText()).contains("update_env", "DB_PASSWORD", "GREETING", "recorded");
        assertThat(drifted.get("instances").get(0).get("envDrift").isNull()).isTrue();
        assertThat(drifted.get("instances").get(2).get("envDrift").isNull()).isTrue();
        assertThat(drifted.toString()).as("no value is shown").doesNotContain(theirs.get("DB_PASSWORD")).doesNotContain(ours.get("DB_PASSWORD"));

        Task decision = await().atMost(Duration.ofSeconds(60)).until(() -> tasks.createTaskQuery()
                .processDefinitionKey("decide-env-drift").processInstanceBusinessKey(SET).singleResult(), t -> t != null);
        assertThat(String.valueOf(tasks.getVariable(decision.getId(), "driftedEnvs"))).contains("admit-env-1: update_env")
                .doesNotContain("admit-env-0").doesNotContain(theirs.get("DB_PASSWORD"));

        // --- the rollback's marker is the application's: a user's start with it is refused, nothing starts
        ResponseEntity<String> forged = driver.admin().postForEntity("/engine-rest/process-definition/key/rollout/start",
                RolloutDriver.json(Map.of("variables", Map.of("replicaSet", Map.of("value", SET),
                        "targetOrdinals", Map.of("value", "1"), "rollbackRecordedEnv", Map.of("value", true, "type", "Boolean")))), String.class);
        assertThat(forged.getStatusCode().value()).as(forged.getBody()).isEqualTo(400);
        assertThat(forged.getBody()).contains("rollbackRecordedEnv: is set by the application");

        // --- rollback: a rollout of admit-env-1 alone sends it its recorded env again
        ResponseEntity<String> decided = driver.completeTask(decision.getId(), Map.of("decision", Map.of("value", "rollback", "type", "String")));
        assertThat(decided.getStatusCode().is2xxSuccessful()).as(decided.getBody()).isTrue();
        ProcessInstance rollback = await().atMost(Duration.ofSeconds(60)).until(() -> runtime.createProcessInstanceQuery()
                .processDefinitionKey("rollout").processInstanceBusinessKey(SET).active().singleResult(), p -> p != null);
        assertThat(runtime.getVariable(rollback.getId(), "rollbackRecordedEnv")).isEqualTo(true);
        assertThat(runtime.getVariable(rollback.getId(), "targetOrdinals")).isEqualTo("1");
        driver.approve(rollback.getId());
        awaitCompleted(rollback.getId());
        await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(200))
                .until(() -> !condition(set(), "Drifted").get("status").asBoolean());
        assertThat(SimulatedKms.decrypt(appId(simulator), newestEnvOf(simulator, SET + "-1"))).as("what admit-env-1 reads now")
                .isEqualTo(opened(ours));
        List<JsonNode> events = simulator.eventsSince(before);
        assertThat(SimulatorView.touched(events)).as("only the drifted slot was touched").containsExactly(SET + "-1");
        assertThat(SimulatorView.maxUnavailable(events)).isEqualTo(1);

        // --- adopt: admit-env-2 changed behind our back keeps what it runs
        awaitBootDistinguishable(2);
        patchEnvs(SET + "-2", theirs);
        Task second = await().atMost(Duration.ofMinutes(2)).until(() -> tasks.createTaskQuery()
                .processDefinitionKey("decide-env-drift").processInstanceBusinessKey(SET).singleResult(), t -> t != null);
        long beforeAdopt = simulator.lastEventSeq();
        assertThat(driver.completeTask(second.getId(), Map.of("decision", Map.of("value", "adopt", "type", "String")))
                .getStatusCode().is2xxSuccessful()).isTrue();
        await().atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(200))
                .until(() -> !condition(set(), "Drifted").get("status").asBoolean());
        assertThat(envs.slot(SET, 2).orElseThrow().known().source()).startsWith("accepted by admin");
        assertThat(simulator.eventsSince(beforeAdopt)).as("adopting restarts nothing").isEmpty();
    }

    /**
     * A boot is told from the attested one by Phala's uptime, to a second, within BootMarker's tolerance: a restart that
     * soon after the slot's last attestation (ours, a moment ago) would pass for the attested boot, as no real restart
     * on Phala can (minutes). The change behind our back waits until the restart it causes is a boot of its own.
     */
    private void awaitBootDistinguishable(int ordinal) {
        Duration margin = com.statefulcvm.fleet.admission.BootMarker.TOLERANCE.plusMillis(1500);
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).until(() -> {
            JsonNode instance = set().get("instances").get(ordinal);
            return instance.hasNonNull("attestedAt")
                    && java.time.Instant.now().isAfter(java.time.Instant.parse(instance.get("attestedAt").asText()).plus(margin));
        });
    }

    private static Map<String, String> env(String whose) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("DB_PASSWORD", whose + "-" + UUID.randomUUID());
        env.put("GREETING", "hello-" + whose);
        return env;
    }

    private static String opened(Map<String, String> env) {
        return "{\"env\":[{\"key\":\"DB_PASSWORD\",\"value\":\"" + env.get("DB_PASSWORD") + "\"},{\"key\":\"GREETING\",\"value\":\""
                + env.get("GREETING") + "\"}]}";
    }

    /** The SDK's updateCvmEnvs, as Terraform's provider sends it: the values sealed to the app's key, the names. */
    private void patchEnvs(String cvm, Map<String, String> env) {
        EnvEncryption.Sealed sealed = EnvEncryption.seal(env, registry.envEncryptPubkey(SET).orElseThrow());
        HttpHeaders headers = new HttpHeaders();
        headers.set("X-API-Key", "test-key");
        headers.set("Content-Type", "application/json");
        ResponseEntity<String> patched = http.exchange("/simulator/api/v1/cvms/" + cvm + "/envs", HttpMethod.PATCH,
                new HttpEntity<>(Map.of("encrypted_env", sealed.encryptedEnv(), "env_keys", sealed.envKeys()), headers), String.class);
        assertThat(patched.getStatusCode().is2xxSuccessful()).as(patched.getBody()).isTrue();
    }

    private JsonNode set() throws Exception {
        return JSON.readTree(new RolloutDriver(http, tasks, history, SET).admin().getForObject("/api/replica-sets/" + SET, String.class));
    }

    private static JsonNode condition(JsonNode set, String type) {
        for (JsonNode c : set.get("conditions")) {
            if (type.equals(c.get("type").asText())) {
                return c;
            }
        }
        return JSON.createObjectNode().put("type", type).put("status", false);
    }

    private void awaitCompleted(String pid) {
        await().atMost(Duration.ofMinutes(5)).until(() -> history.createHistoricProcessInstanceQuery().processInstanceId(pid).finished().count() == 1);
        assertThat(history.createHistoricProcessInstanceQuery().processInstanceId(pid).singleResult().getEndActivityId())
                .isEqualTo("EndEvent_RolloutCompleted");
    }

    private JsonNode phala(String path) throws Exception {
        return new SimulatorView(http).phala(path);
    }

    private static String appId(SimulatorView simulator) throws Exception {
        return simulator.cvm(SET + "-0").get("app_id").asText().replaceFirst("^app_", "");
    }

    /** The encrypted env of the CVM's newest revision. */
    private String newestEnvOf(SimulatorView simulator, String cvm) throws Exception {
        String vmUuid = simulator.cvm(cvm).get("vm_uuid").asText();
        String app = appId(simulator);
        for (JsonNode r : phala("/apps/" + app + "/revisions?page_size=100").get("revisions")) {
            if (vmUuid.equals(r.get("vm_uuid").asText())) {
                return phala("/apps/" + app + "/revisions/" + r.get("revision_id").asText()).get("encrypted_env").asText();
            }
        }
        throw new AssertionError("no revision of " + cvm);
    }
}
