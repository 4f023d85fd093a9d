package com.statefulcvm.web.api;

import com.statefulcvm.web.SimulatorView;
import com.statefulcvm.web.RolloutDriver;
import com.statefulcvm.web.E2eSupport;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.statefulcvm.delegates.procedure.ScaleVariables;
import org.camunda.bpm.engine.HistoryService;
import org.camunda.bpm.engine.IdentityService;
import org.camunda.bpm.engine.RuntimeService;
import org.camunda.bpm.engine.TaskService;
import org.camunda.bpm.engine.history.HistoricProcessInstance;
import org.camunda.bpm.engine.identity.User;
import org.camunda.bpm.engine.task.Task;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.client.TestRestTemplate;
import org.springframework.http.HttpEntity;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code POST /api/replica-sets/{name}/scale} around the procedure, on the simulator's own CVMs (a generic set: healthy
 * and attested by the simulator): what it refuses (each refusal names the field or the running procedure and starts
 * nothing), a scale that changes nothing, a scale up and down with the count every reader sees, a retained slot that
 * comes back as the same instance, and a scale-down below the minimum that an operator rejects, which changes nothing.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.DEFINED_PORT)
@ActiveProfiles({"e2e", "scale-api"})
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ScaleApiTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SET = "webscale";

    @DynamicPropertySource
    static void port(DynamicPropertyRegistry registry) {
        E2eSupport.onFreePortWithDatabase(registry, "scale-api-test");
    }

    @Autowired
    TestRestTemplate http;
    @Autowired
    RuntimeService runtime;
    @Autowired
    HistoryService history;
    @Autowired
    TaskService tasks;
    @Autowired
    IdentityService identity;

    @AfterEach
    void deleteRunningScales() {
        E2eSupport.deleteRunning(runtime, ScaleVariables.PROCESS_KEY);
    }

    private TestRestTemplate admin() {
        return http.withBasicAuth("admin", "admin");
    }

    private ResponseEntity<String> post(TestRestTemplate as, String set, String body) {
        HttpHeaders headers = new HttpHeaders();
        headers.setContentType(MediaType.APPLICATION_JSON);
        return as.postForEntity("/api/replica-sets/" + set + "/scale", body == null ? null : new HttpEntity<>(body, headers), String.class);
    }

    private static void refused(ResponseEntity<String> answer, HttpStatus status, String message) throws Exception {
        assertThat(answer.getStatusCode()).as(answer.getBody()).isEqualTo(status);
        assertThat(JSON.readTree(answer.getBody()).get("message").asText()).contains(message);
    }

    private String started(ResponseEntity<String> answer) throws Exception {
        assertThat(answer.getStatusCode()).as(answer.getBody()).isEqualTo(HttpStatus.CREATED);
        return JSON.readTree(answer.getBody()).get("processInstanceId").asText();
    }

    private HistoricProcessInstance ended(String pid) {
        return await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200))
                .until(() -> history.createHistoricProcessInstanceQuery().processInstanceId(pid).finished().singleResult(), p -> p != null);
    }

    private JsonNode status() throws Exception {
        return JSON.readTree(admin().getForObject("/api/replica-sets/" + SET, String.class));
    }

    private JsonNode cvm(String name) throws Exception {
        return new SimulatorView(http).cvm(name);
    }

    @Test
    @Order(1)
    void badRequestsAreRefusedNamingTheFieldAndNothingStarts() throws Exception {
        await().atMost(Duration.ofSeconds(30)).until(() -> status().get("instances").size() == 2);
        refused(post(admin(), "nosuchset", "{\"replicas\": 3}"), HttpStatus.NOT_FOUND, "unknown replica set 'nosuchset'");
        refused(post(admin(), SET, null), HttpStatus.BAD_REQUEST, "replicas: is required");
        refused(post(admin(), SET, "{\"replicas\": 0}"), HttpStatus.BAD_REQUEST, "replicas: must be at least 1 (was 0)");
        refused(post(admin(), SET, "{\"replicas\": -2}"), HttpStatus.BAD_REQUEST, "replicas: must be at least 1 (was -2)");
        refused(post(admin(), SET, "{\"replicas\": 5}"), HttpStatus.BAD_REQUEST, "replicas: must not exceed 4 (scaling.maxReplicas) (was 5)");
        refused(post(admin(), SET, "{\"replicas\": \"3\"}"), HttpStatus.BAD_REQUEST, "replicas: must be a whole number from 1 to 4 (was '3')");
        refused(post(admin(), SET, "{\"replicas\": 2.5}"), HttpStatus.BAD_REQUEST, "replicas: must be a whole number from 1 to 4");
        refused(post(admin(), SET, "{\"replicas\": 3, \"size\": 3}"), HttpStatus.BAD_REQUEST, "size");
        refused(post(admin(), SET, "[3]"), HttpStatus.BAD_REQUEST, "replicas");
        refused(post(admin(), SET, "{\"replicas\": 3, \"reason\": 7}"), HttpStatus.BAD_REQUEST, "reason: must be a string");
        assertThat(runtime.createProcessInstanceQuery().processDefinitionKey(ScaleVariables.PROCESS_KEY).count()).isZero();
    }

    @Test
    @Order(2)
    void aUserOutsideTheOperatorsMayNotScale() throws Exception {
        if (identity.createUserQuery().userId("scaleauditor").count() == 0) {
            User user = identity.newUser("scaleauditor");
            user.setPassword("auditor-password");
            identity.saveUser(user);
        }
        refused(post(http.withBasicAuth("scaleauditor", "auditor-password"), SET, "{\"replicas\": 3}"), HttpStatus.FORBIDDEN,
                "CREATE_INSTANCE on the process definition 'scale'");
        assertThat(runtime.createProcessInstanceQuery().processDefinitionKey(ScaleVariables.PROCESS_KEY).count()).isZero();
    }

    /**
     * Issue 18: a scale-up that needs more CVMs than the workspace's quotas leave is refused when it is planned, with
     * the numbers, and starts nothing (rather than failing half way with the service's "quota exceeded").
     */
    @Test
    @Order(2)
    void aScaleUpBeyondTheWorkspacesQuotasIsRefusedWithTheNumbers() throws Exception {
        HttpHeaders key = new HttpHeaders();
        key.set("X-API-Key", "test-key");
        key.set("X-Phala-Version", "2026-05-22");
        int cvms = JSON.readTree(http.exchange("/simulator/api/v1/cvms/paginated?page=1&page_size=100",
                org.springframework.http.HttpMethod.GET, new HttpEntity<>(key), String.class).getBody()).get("total").asInt();
        HttpHeaders json = new HttpHeaders();
        json.setContentType(MediaType.APPLICATION_JSON);
        assertThat(http.exchange("/simulator/_admin/quotas", org.springframework.http.HttpMethod.PUT,
                new HttpEntity<>("{\"vmSlots\": " + cvms + "}", json), String.class).getStatusCode()).isEqualTo(HttpStatus.OK);
        try {
            refused(post(admin(), SET, "{\"replicas\": 3}"), HttpStatus.BAD_REQUEST,
                    "replicas: the scale-up of webscale to 3 needs 1 new CVM but workspace '");
            refused(post(admin(), SET, "{\"replicas\": 4}"), HttpStatus.BAD_REQUEST,
                    "is short: 2 VM slots needed, 0 left of " + cvms);
            assertThat(runtime.createProcessInstanceQuery().processDefinitionKey(ScaleVariables.PROCESS_KEY).count()).isZero();
        } finally {
            http.exchange("/simulator/_admin/quotas", org.springframework.http.HttpMethod.PUT,
                    new HttpEntity<>("{\"vmSlots\": 100}", json), String.class);
        }
    }

    @Test
    @Order(3)
    void aScaleToTheCurrentCountChangesNothingAndSaysSo() throws Exception {
        ResponseEntity<String> answer = post(admin(), SET, "{\"replicas\": 2}");
        assertThat(answer.getStatusCode()).as(answer.getBody()).isEqualTo(HttpStatus.OK);
        JsonNode body = JSON.readTree(answer.getBody());
        assertThat(body.get("changed").asBoolean()).isFalse();
        assertThat(body.get("plan").asText()).isEqualTo("webscale has 2 replicas already and no CVM above them: nothing to change");
        assertThat(runtime.createProcessInstanceQuery().processDefinitionKey(ScaleVariables.PROCESS_KEY).count()).isZero();
    }

    @Test
    @Order(4)
    void upAndDownMoveTheCountEveryReaderSeesAndARetainedSlotComesBackAsTheSameInstance() throws Exception {
        String up = started(post(admin(), SET, "{\"replicas\": 3, \"reason\": \"more traffic\"}"));
        assertThat(runtime.createProcessInstanceQuery().processInstanceId(up).singleResult().getBusinessKey()).isEqualTo(SET);
        refused(post(admin(), SET, "{\"replicas\": 4}"), HttpStatus.CONFLICT, "a scale of replica set 'webscale' is already running");
        ResponseEntity<String> rollout = admin().postForEntity("/api/replica-sets/" + SET + "/rollouts",
                RolloutDriver.json(Map.of("dockerCompose", "services:\n  web:\n    image: nginxdemos/hello:0.4\n")), String.class);
        refused(rollout, HttpStatus.CONFLICT, "scale " + up + " of 'webscale' is running");
        assertThat(ended(up).getEndActivityId()).isEqualTo("EndEvent_Scaled");
        JsonNode three = status();
        assertThat(three.get("replicas").asInt()).isEqualTo(3);
        assertThat(three.get("instances")).hasSize(3);
        assertThat(three.path("scaling").path("fileReplicas").asInt()).isEqualTo(2);
        assertThat(three.path("scaling").path("scaledBy").asText()).isEqualTo("admin");
        String instanceId = cvm(SET + "-2").path("instance_id").asText();
        assertThat(cvm(SET + "-2").path("status").asText()).isEqualTo("running");
        assertThat(history.createHistoricVariableInstanceQuery().processInstanceId(up).variableName("outcome").singleResult()
                .getValue().toString()).isEqualTo("scaled webscale from 2 to 3 replicas; requested by admin: more traffic");

        String down = started(post(admin(), SET, "{\"replicas\": 2}"));
        assertThat(ended(down).getEndActivityId()).isEqualTo("EndEvent_Scaled");
        JsonNode two = status();
        assertThat(two.get("replicas").asInt()).isEqualTo(2);
        assertThat(two.get("instances")).hasSize(2);
        assertThat(two.path("scaling").path("retainedSlots").get(0).path("name").asText()).isEqualTo(SET + "-2");
        assertThat(cvm(SET + "-2").path("status").asText()).isEqualTo("stopped");
        assertThat(cvm(SET + "-2").path("instance_id").asText()).isEqualTo(instanceId);

        String again = started(post(admin(), SET, "{\"replicas\": 3}"));
        assertThat(ended(again).getEndActivityId()).isEqualTo("EndEvent_Scaled");
        assertThat(cvm(SET + "-2").path("status").asText()).isEqualTo("running");
        assertThat(cvm(SET + "-2").path("instance_id").asText()).as("the retained instance came back").isEqualTo(instanceId);
        assertThat(status().path("scaling").path("retainedSlots").isMissingNode()).isTrue();
    }

    @Test
    @Order(5)
    void belowTheMinimumAnOperatorDecidesAndARejectionChangesNothing() throws Exception {
        int before = status().get("replicas").asInt();
        ResponseEntity<String> answer = post(admin(), SET, "{\"replicas\": 1}");
        String pid = started(answer);
        assertThat(JSON.readTree(answer.getBody()).get("belowMinimum").asBoolean()).isTrue();
        Task approval = await().atMost(Duration.ofSeconds(30))
                .until(() -> tasks.createTaskQuery().processInstanceId(pid).singleResult(), t -> t != null);
        assertThat(approval.getName()).isEqualTo("Approve scaling webscale down to 1, below its minimum of 2");
        ResponseEntity<String> completed = admin().postForEntity("/engine-rest/task/" + approval.getId() + "/complete",
                RolloutDriver.json(Map.of("variables", Map.of("approved", Map.of("value", false)))), String.class);
        assertThat(completed.getStatusCode().is2xxSuccessful()).as(completed.getBody()).isTrue();
        assertThat(ended(pid).getEndActivityId()).isEqualTo("EndEvent_Rejected");
        assertThat(status().get("replicas").asInt()).isEqualTo(before);
        for (int ordinal = 0; ordinal < before; ordinal++) {
            assertThat(cvm(SET + "-" + ordinal).path("status").asText()).isEqualTo("running");
        }
        String decisions = String.valueOf(history.createHistoricVariableInstanceQuery().processInstanceId(pid)
                .variableName("decisions").singleResult().getValue());
        assertThat(decisions).contains("rejected").contains("admin");
    }
}
