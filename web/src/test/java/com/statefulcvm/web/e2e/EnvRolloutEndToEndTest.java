package com.statefulcvm.web.e2e;

import com.statefulcvm.web.WebappSession;
import com.statefulcvm.web.SimulatorView;
import com.statefulcvm.web.RolloutDriver;
import com.statefulcvm.web.E2eSupport;
import com.statefulcvm.web.DatabaseScan;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.statefulcvm.simulator.cloud.SimulatedKms;
import com.statefulcvm.fleet.InstanceRegistry;
import com.statefulcvm.web.api.ProcedureStartRefused;
import org.camunda.bpm.engine.HistoryService;
import org.camunda.bpm.engine.RepositoryService;
import org.camunda.bpm.engine.RuntimeService;
import org.camunda.bpm.engine.TaskService;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.client.TestRestTemplate;
import org.springframework.http.HttpEntity;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import javax.sql.DataSource;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.time.Duration;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.net.http.HttpResponse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * An env-only rollout of webdemo over real HTTP to the embedded simulator: the envs are encrypted to the app's key
 * before anything is stored, each CVM gets {@code PATCH /cvms/{id}/envs} in wave order (one at a time, the highest
 * ordinal first), and what each received decrypts, with the app's private key, to exactly the variables sent. The
 * values are in no process variable, no table and no log line; the names are in the plan and the report.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.DEFINED_PORT, properties = {
        "logging.level.com.statefulcvm=DEBUG", "logging.level.org.springframework.web=DEBUG"})
@ActiveProfiles("e2e")
@ExtendWith(OutputCaptureExtension.class)
class EnvRolloutEndToEndTest {

    private static final String SET = "webdemo";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SECRET = "s3cret-" + UUID.randomUUID();
    private static final String GREETING = "hello-" + UUID.randomUUID();

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        E2eSupport.onFreePortWithDatabase(registry, "env-rollout-e2e");
    }

    @Autowired
    TestRestTemplate http;
    @Autowired
    TaskService tasks;
    @Autowired
    HistoryService history;
    @Autowired
    DataSource dataSource;
    @Autowired
    InstanceRegistry registry;
    @Autowired
    RuntimeService runtime;
    @Autowired
    RepositoryService repository;
    @Value("${server.port}")
    int port;

    @Test
    void anEnvOnlyRolloutSendsEachCvmTheEncryptedEnvInWaveOrderAndStoresNoValue(CapturedOutput output) throws Exception {
        RolloutDriver driver = new RolloutDriver(http, tasks, history, SET);
        driver.awaitAllRunning(3);
        String composeBefore = new SimulatorView(http).cvm(SET + "-0").get("compose_file").get("docker_compose_file").asText();
        assertThat(registry.envEncryptPubkey(SET)).as("the key Phala answered when the app was created, recorded")
                .hasValueSatisfying(key -> assertThat(key).matches("^[0-9a-f]{64}$"));
        Map<String, String> envs = new LinkedHashMap<>();
        envs.put("DB_PASSWORD", SECRET);
        envs.put("GREETING", GREETING);

        ResponseEntity<String> preview = driver.admin().postForEntity("/api/replica-sets/" + SET + "/rollouts/plan",
                RolloutDriver.json(Map.of("envs", envs)), String.class);
        assertThat(preview.getStatusCode()).isEqualTo(HttpStatus.OK);
        JsonNode plan = JSON.readTree(preview.getBody());
        assertThat(plan.get("envChange").get("keys")).hasToString("[\"DB_PASSWORD\",\"GREETING\"]");
        assertThat(plan.get("actions").get(0).get("reason").asText())
                .isEqualTo("env change (DB_PASSWORD, GREETING): the environment is replaced in full, compose unchanged");
        assertThat(preview.getBody()).doesNotContain(SECRET).doesNotContain(GREETING);

        long since = new SimulatorView(http).lastEventSeq();
        int envUpdatesBefore = envRevisions().size();
        // a deadline no loaded test machine misses: the point here is the env, not the halt
        ResponseEntity<String> created = driver.admin().postForEntity("/api/replica-sets/" + SET + "/rollouts",
                RolloutDriver.json(Map.of("envs", envs, "updatePolicy", Map.of("progressDeadlineSeconds", 300))), String.class);
        assertThat(created.getStatusCode()).isEqualTo(HttpStatus.CREATED);
        String pid = JSON.readTree(created.getBody()).get("processInstanceId").asText();
        driver.approve(pid);
        awaitCompleted(pid);

        // wave order, one CVM down at a time
        List<JsonNode> events = new SimulatorView(http).eventsSince(since);
        assertThat(SimulatorView.firstUpdateOrder(events)).containsExactly(SET + "-2", SET + "-1", SET + "-0");
        assertThat(SimulatorView.maxUnavailable(events)).isEqualTo(1);

        // each CVM received the env through the env endpoint, in that order, and it opens to exactly what was sent
        List<JsonNode> envUpdates = envRevisions().subList(envUpdatesBefore, envRevisions().size());
        assertThat(envUpdates).extracting(r -> slotOf(r.get("vm_uuid").asText()))
                .containsExactly(SET + "-2", SET + "-1", SET + "-0");
        for (JsonNode revision : envUpdates) {
            String encrypted = revisionDetail(revision.get("revision_id").asText()).get("encrypted_env").asText();
            assertThat(encrypted).matches("^[0-9a-f]+$").doesNotContain(HexFormat.of().formatHex(SECRET.getBytes(StandardCharsets.UTF_8)));
            assertThat(SimulatedKms.decrypt(appId(), encrypted)).as("what the CVM reads with the app's KMS key").isEqualTo("{\"env\":[{\"key\":\"DB_PASSWORD\",\"value\":\"" + SECRET
                    + "\"},{\"key\":\"GREETING\",\"value\":\"" + GREETING + "\"}]}");
        }
        for (int ordinal = 0; ordinal < 3; ordinal++) {
            JsonNode cvm = new SimulatorView(http).cvm(SET + "-" + ordinal);
            assertThat(cvm.get("compose_file").get("docker_compose_file").asText()).as("compose untouched").isEqualTo(composeBefore);
            assertThat(cvm.get("compose_file").get("allowed_envs")).hasToString("[\"DB_PASSWORD\",\"GREETING\"]");
            assertThat(cvm.get("status").asText()).isEqualTo("running");
        }

        // the report names the keys; no value is in a process variable, a table or a log line
        String report = driver.admin().getForObject("/api/rollouts/" + pid, String.class);
        assertThat(JSON.readTree(report).get("envKeys").asText()).isEqualTo("DB_PASSWORD,GREETING");
        assertThat(report).doesNotContain(SECRET).doesNotContain(GREETING);
        assertThat(history.createHistoricVariableInstanceQuery().list()).isNotEmpty().allSatisfy(v ->
                assertThat(String.valueOf(v.getValue())).doesNotContain(SECRET).doesNotContain(GREETING));
        DatabaseScan.Scan scan = DatabaseScan.scan(dataSource, List.of(SECRET, GREETING, "DB_PASSWORD"));
        assertThat(scan.tablesContaining("DB_PASSWORD")).as("the scan finds what is stored: the names").contains("ACT_HI_VARINST");
        assertThat(scan.tablesContaining(SECRET)).isEmpty();
        assertThat(scan.tablesContaining(GREETING)).isEmpty();
        // with Spring MVC at DEBUG (it would log request bodies but for application.yaml's pins), and ours at DEBUG;
        // the only lines allowed to hold a value are the test's own HTTP client's, on the test's thread
        String log = output.getAll();
        assertThat(log).contains("Requested env update of webdemo-2").contains("DispatcherServlet");
        assertThat(log.lines().filter(line -> line.contains(SECRET) || line.contains(GREETING))
                .filter(line -> !(line.contains("[           main]")
                        && (line.contains("o.s.web.client.RestTemplate") || line.contains("org.springframework.web.HttpLogging"))))
                .toList()).as("application log lines holding an env value").isEmpty();
    }

    /**
     * The same env rollout from Tasklist's start form, through Tasklist's own API (the webapp session and its CSRF
     * token, the form's fields as Tasklist submits them): the env field is sealed on its way in, before the engine sees
     * it, the approval is the form's explicit choice, and the values are again in no variable, table or log line. A
     * clear env that reaches the engine some other way is refused, and leaves nothing either.
     */
    @Test
    void anEnvRolloutFromTheStartFormIsSealedBeforeTheEngineSeesIt(CapturedOutput output) throws Exception {
        String secret = "form-s3cret-" + UUID.randomUUID();
        String greeting = "form-hello-" + UUID.randomUUID();
        RolloutDriver driver = new RolloutDriver(http, tasks, history, SET);
        driver.awaitAllRunning(3);
        // other names than the REST test's: Phala records an env update as a revision when the names change the compose
        int envUpdatesBefore = envRevisions().size();
        WebappSession tasklist = WebappSession.login(port, "admin", "admin", "tasklist");
        String rollout = repository.createProcessDefinitionQuery().processDefinitionKey("rollout").latestVersion().singleResult().getId();
        String submit = WebappSession.ENGINE_API + "/process-definition/" + rollout + "/submit-form";

        // a bad line is refused naming the line, never echoing it, and nothing starts
        HttpResponse<String> bad = tasklist.post(submit, formVariables(Map.of("replicaSet", SET, "envs", "API_TOKEN " + secret)));
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(bad.body()).contains("envs, line 1: write NAME=value").doesNotContain(secret);
        // the sealed variables are the application's to set
        HttpResponse<String> forged = tasklist.post(submit, formVariables(Map.of("replicaSet", SET, "targetEncryptedEnv", "00ff", "targetEnvKeys", "X")));
        assertThat(forged.statusCode()).isEqualTo(400);
        assertThat(forged.body()).contains("targetEncryptedEnv: is set by the application");
        // a clear env past the form's path (the Java API here) is refused as the rollout starts: rolled back, nothing kept
        assertThatThrownBy(() -> runtime.startProcessInstanceByKey("rollout", Map.of("replicaSet", SET, "envs", "API_TOKEN=" + secret)))
                .isInstanceOf(ProcedureStartRefused.class).hasMessageContaining("envs: reached the engine in clear").hasMessageNotContaining(secret);

        // the form's start: no compose (the set keeps its own), the env as Tasklist's textarea sends it
        HttpResponse<String> started = tasklist.post(submit, formVariables(Map.of("replicaSet", SET, "dockerCompose", "",
                "envs", "API_TOKEN=" + secret + "\n\n# the greeting\nWELCOME=" + greeting + "\n", "updatePolicy", "{\"progressDeadlineSeconds\": 300}")));
        assertThat(started.statusCode()).as(started.body()).isEqualTo(200);
        assertThat(started.body()).doesNotContain(secret).doesNotContain(greeting);
        String pid = JSON.readTree(started.body()).get("id").asText();
        // approved with the form's explicit choice, as Tasklist submits the radio
        String task = await().atMost(Duration.ofMinutes(2)).until(() -> tasks.createTaskQuery().processInstanceId(pid).singleResult(), t -> t != null).getId();
        HttpResponse<String> approved = tasklist.post(WebappSession.ENGINE_API + "/task/" + task + "/submit-form",
                formVariables(Map.of("approved", "true", "comment", "env only")));
        assertThat(approved.statusCode()).as(approved.body()).isEqualTo(204);
        awaitCompleted(pid);

        List<JsonNode> envUpdates = envRevisions();
        assertThat(envUpdates).hasSize(envUpdatesBefore + 3);
        String encrypted = revisionDetail(envUpdates.get(envUpdates.size() - 1).get("revision_id").asText()).get("encrypted_env").asText();
        assertThat(SimulatedKms.decrypt(appId(), encrypted)).isEqualTo("{\"env\":[{\"key\":\"API_TOKEN\",\"value\":\"" + secret
                + "\"},{\"key\":\"WELCOME\",\"value\":\"" + greeting + "\"}]}");
        String report = driver.admin().getForObject("/api/rollouts/" + pid, String.class);
        assertThat(JSON.readTree(report).get("envKeys").asText()).isEqualTo("API_TOKEN,WELCOME");
        assertThat(report).doesNotContain(secret).doesNotContain(greeting);
        assertThat(history.createHistoricVariableInstanceQuery().list()).allSatisfy(v ->
                assertThat(String.valueOf(v.getValue())).doesNotContain(secret).doesNotContain(greeting));
        DatabaseScan.Scan scan = DatabaseScan.scan(dataSource, List.of(secret, greeting));
        assertThat(scan.tablesContaining(secret)).isEmpty();
        assertThat(scan.tablesContaining(greeting)).isEmpty();
        assertThat(output.getAll().lines().filter(line -> line.contains(secret) || line.contains(greeting)).toList())
                .as("log lines holding an env value").isEmpty();
    }

    /** Form fields as Tasklist's Camunda Forms submit them, the type left to the engine. */
    private static String formVariables(Map<String, Object> fields) throws Exception {
        Map<String, Object> variables = new LinkedHashMap<>();
        fields.forEach((name, value) -> variables.put(name, Map.of("value", value)));
        return JSON.writeValueAsString(Map.of("variables", variables));
    }

    @Test
    void badEnvsAreRefusedNamingTheVariableAndNeverEchoingAValue() throws Exception {
        RolloutDriver driver = new RolloutDriver(http, tasks, history, SET);
        ResponseEntity<String> badName = driver.admin().postForEntity("/api/replica-sets/" + SET + "/rollouts",
                RolloutDriver.json(Map.of("envs", Map.of("1BAD", SECRET))), String.class);
        assertThat(badName.getStatusCode()).isEqualTo(HttpStatus.BAD_REQUEST);
        assertThat(badName.getBody()).contains("envs.1BAD").doesNotContain(SECRET);
        ResponseEntity<String> notAString = driver.admin().postForEntity("/api/replica-sets/" + SET + "/rollouts",
                RolloutDriver.json(Map.of("envs", Map.of("TOKEN", Map.of("nested", SECRET)))), String.class);
        assertThat(notAString.getStatusCode()).isEqualTo(HttpStatus.BAD_REQUEST);
        assertThat(notAString.getBody()).contains("envs.TOKEN: must be a string").doesNotContain(SECRET);
        ResponseEntity<String> empty = driver.admin().postForEntity("/api/replica-sets/" + SET + "/rollouts",
                RolloutDriver.json(Map.of("envs", Map.of())), String.class);
        assertThat(empty.getStatusCode()).isEqualTo(HttpStatus.BAD_REQUEST);
        assertThat(empty.getBody()).contains("envs: must be a non-empty JSON object");
    }

    // --- helpers -----------------------------------------------------------------------------------------------

    /** Generous: this machine's CPUs are shared; on timeout it says where the rollout stands. */
    private void awaitCompleted(String pid) {
        try {
            await().atMost(Duration.ofMinutes(5)).until(() -> history.createHistoricProcessInstanceQuery()
                    .processInstanceId(pid).finished().count() == 1);
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            throw new AssertionError("the rollout did not end; it is at " + runtime.getActivityInstance(pid)
                    + ", stages " + runtime.createVariableInstanceQuery().variableName("stage").list().stream()
                    .map(v -> v.getValue()).toList()
                    + ", incidents " + runtime.createIncidentQuery().list().stream().map(i -> i.getIncidentMessage()).toList(), e);
        }
        assertThat(history.createHistoricProcessInstanceQuery().processInstanceId(pid).singleResult().getEndActivityId())
                .isEqualTo("EndEvent_RolloutCompleted");
    }

    private JsonNode phala(String path) throws Exception {
        return new SimulatorView(http).phala(path);
    }

    private String appId() throws Exception {
        return new SimulatorView(http).cvm(SET + "-0").get("app_id").asText().replaceFirst("^app_", "");
    }

    /** The app's update_env revisions, oldest first. */
    private List<JsonNode> envRevisions() throws Exception {
        List<JsonNode> out = new ArrayList<>();
        phala("/apps/" + appId() + "/revisions?page_size=100").get("revisions").forEach(r -> {
            if ("update_env".equals(r.get("operation_type").asText())) {
                out.add(0, r);
            }
        });
        return out;
    }

    private JsonNode revisionDetail(String revisionId) throws Exception {
        return phala("/apps/" + appId() + "/revisions/" + revisionId);
    }

    private String slotOf(String vmUuid) {
        try {
            for (int ordinal = 0; ordinal < 3; ordinal++) {
                if (vmUuid.equals(new SimulatorView(http).cvm(SET + "-" + ordinal).get("vm_uuid").asText())) {
                    return SET + "-" + ordinal;
                }
            }
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        return vmUuid;
    }
}
