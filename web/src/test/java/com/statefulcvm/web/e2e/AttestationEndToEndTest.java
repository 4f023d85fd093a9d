package com.statefulcvm.web.e2e;

import com.statefulcvm.web.RolloutDriver;
import com.statefulcvm.web.E2eSupport;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.statefulcvm.delegates.procedure.RolloutVariables;
import org.camunda.bpm.engine.HistoryService;
import org.camunda.bpm.engine.RuntimeService;
import org.camunda.bpm.engine.TaskService;
import org.camunda.bpm.engine.task.Task;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.client.TestRestTemplate;
import org.springframework.http.HttpEntity;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Attestation in the rollout, over real HTTP: the simulator's synthetic evidence for every CVM, verified by the
 * local verifier with the simulator's root (trusted only because the simulator is embedded) and its PCCS.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.DEFINED_PORT)
@ActiveProfiles("e2e")
class AttestationEndToEndTest {

    private static final String SET = "webdemo";
    private static final ObjectMapper JSON = new ObjectMapper();

    @DynamicPropertySource
    static void port(DynamicPropertyRegistry registry) {
        E2eSupport.onFreePortWithDatabase(registry, "attestation-e2e");
    }

    @Autowired
    TestRestTemplate http;
    @Autowired
    TaskService tasks;
    @Autowired
    HistoryService history;
    @Autowired
    RuntimeService runtime;

    /**
     * The tests share one application and its simulator: a rollout a failed test left running is deleted, every CVM is
     * made honest again, and a slot a test left fenced (stopped) is readmitted and admitted, so the next test starts
     * from three running, admitted instances.
     */
    @AfterEach
    void honestAgain() throws Exception {
        E2eSupport.deleteRunning(runtime, RolloutVariables.PROCESS_KEY);
        for (int ordinal = 0; ordinal < 3; ordinal++) {
            http.postForEntity("/simulator/_admin/cvms/" + SET + "-" + ordinal + "/evidence", json(Map.of("tamper", "none")), String.class);
        }
        for (JsonNode instance : driver().readSet().get("instances")) {
            if (instance.hasNonNull("fenced")) {
                readmit(instance.get("ordinal").asInt());
            }
        }
    }

    private void readmit(int ordinal) throws Exception {
        ResponseEntity<String> readmit = admin().postForEntity("/api/replica-sets/" + SET + "/instances/" + ordinal + "/readmit",
                json(Map.of("reason", "test cleanup: evidence honest again")), String.class);
        assertThat(readmit.getStatusCode()).as("readmit of %s-%d: %s", SET, ordinal, readmit.getBody()).isEqualTo(HttpStatus.CREATED);
        driver().awaitEnded(JSON.readTree(readmit.getBody()).get("processInstanceId").asText(), "EndEvent_HealedByRestart");
        await().atMost(Duration.ofSeconds(30)).until(() -> driver().readSet().get("instances").get(ordinal),
                i -> !i.hasNonNull("fenced") && "running".equals(i.path("status").asText()));
    }

    @Test
    void aCvmAttestingAnotherComposeHashIsFencedAndHaltsTheRolloutAtItsSlotAndTheApiSaysWhy() throws Exception {
        driver().awaitAllRunning(3);
        ResponseEntity<String> tampered = http.postForEntity("/simulator/_admin/cvms/" + SET + "-1/evidence",
                json(Map.of("tamper", "compose-hash")), String.class);
        assertThat(tampered.getStatusCode().is2xxSuccessful()).isTrue();

        String pid = startAndApprove("services:\n  web:\n    image: nginxdemos/hello:attested\n");
        Task halted = driver().awaitTask(pid, "UserTask_RolloutHalted");
        assertThat(halted.getName()).as("halted because: %s", tasks.getVariable(halted.getId(), "haltReason"))
                .isEqualTo("Rollout halted at webdemo-1: retry, skip or abort");
        assertThat((String) tasks.getVariable(halted.getId(), "haltReason"))
                .startsWith("attestation of webdemo-1 failed, the instance is not admitted: ADMISSION_REJECTED")
                .contains("compose_hash");

        JsonNode set = JSON.readTree(admin().getForObject("/api/replica-sets/" + SET, String.class));
        JsonNode slot1 = set.get("instances").get(1);
        assertThat(slot1.get("condition").asText()).startsWith("Fenced: attestation failed: ADMISSION_REJECTED").contains("compose_hash");
        assertThat(slot1.get("fenced").asText()).as("kept out of the workload: stopped, the default")
                .startsWith("fenced (stopped): attestation failed: ADMISSION_REJECTED");
        assertThat(slot1.get("attested").asBoolean(true)).isFalse();
        assertThat(slot1.get("attestation").asText()).startsWith("ADMISSION_REJECTED").contains("compose_hash");
        assertThat(set.get("instances").get(2).get("attested").asBoolean()).as("webdemo-2 was admitted").isTrue();
        assertThat(set.get("instances").get(2).get("condition").asText()).as("the honest slot before it passed")
                .startsWith("Ready");

        assertThat(driver().completeTask(halted.getId(), Map.of("decision", Map.of("value", "abort", "type", "String")))
                .getStatusCode()).isEqualTo(HttpStatus.NO_CONTENT);
        driver().awaitEnded(pid, "EndEvent_RolloutAborted");
    }

    @Test
    void honestEvidenceIsAdmittedAndTheRolloutFinishes() throws Exception {
        driver().awaitAllRunning(3);
        String pid = startAndApprove("services:\n  web:\n    image: nginxdemos/hello:honest\n");
        driver().awaitEnded(pid, "EndEvent_RolloutCompleted");
        assertThat(history.createHistoricVariableInstanceQuery().processInstanceId(pid).variableName("attested").list())
                .isNotEmpty();
    }

    @Test
    void theVerifyEndpointChecksRealEvidenceAndNamesBadFields() throws Exception {
        String vector = "/test-vectors/attestation/dstack-0.6.0-getquote.json";   // from connectors' test jar
        JsonNode capture = JSON.readTree(Objects.requireNonNull(getClass().getResource(vector), vector));
        Map<String, Object> body = new HashMap<>();
        body.put("quote", capture.get("quote").asText());
        body.put("event_log", capture.get("event_log").asText());
        body.put("vm_config", capture.get("vm_config").asText());
        ResponseEntity<String> verified = admin().postForEntity("/api/attestations/verify", json(body), String.class);
        assertThat(verified.getStatusCode()).isEqualTo(HttpStatus.OK);
        JsonNode verdict = JSON.readTree(verified.getBody());
        assertThat(verdict.get("identity").get("appId").asText()).isEqualTo("86b0e55f2fa8e4fb69d890f14f54d5612707646e");
        assertThat(verdict.get("identity").get("composeHash").asText())
                .isEqualTo("86b0e55f2fa8e4fb69d890f14f54d5612707646e2573d54e0d2ddaaade77caa9");
        assertThat(verdict.get("identity").get("instanceId").asText()).isEqualTo("050bf89570575fe8fab4cb8f0a62a9e64efe8ead");
        JsonNode rtmr3 = null;
        for (JsonNode check : verdict.get("checks")) {
            if ("event-log.rtmr3".equals(check.get("name").asText())) {
                rtmr3 = check;
            }
        }
        assertThat(rtmr3).isNotNull();
        assertThat(rtmr3.get("passed").asBoolean()).isTrue();

        body.put("quote", "zz-not-hex");
        ResponseEntity<String> badHex = admin().postForEntity("/api/attestations/verify", json(body), String.class);
        assertThat(badHex.getStatusCode()).isEqualTo(HttpStatus.BAD_REQUEST);
        assertThat(badHex.getBody()).contains("quote: must be a hex string");
        body.put("quote", capture.get("quote").asText());
        body.put("at", "yesterday");
        ResponseEntity<String> badAt = admin().postForEntity("/api/attestations/verify", json(body), String.class);
        assertThat(badAt.getBody()).contains("at: must be an ISO-8601 instant");
        body.remove("at");
        body.remove("event_log");
        assertThat(admin().postForEntity("/api/attestations/verify", json(body), String.class).getBody())
                .contains("event_log: is required");
    }

    private RolloutDriver driver() {
        return new RolloutDriver(http, tasks, history, SET);
    }

    private TestRestTemplate admin() {
        return driver().admin();
    }

    private String startAndApprove(String compose) throws Exception {
        String pid = driver().startRollout(compose);
        driver().approve(pid);
        return pid;
    }

    private static HttpEntity<Object> json(Object body) {
        return RolloutDriver.json(body);
    }
}
