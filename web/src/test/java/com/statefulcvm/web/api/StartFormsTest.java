package com.statefulcvm.web.api;

import com.statefulcvm.web.WebappSession;
import com.statefulcvm.web.E2eSupport;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.statefulcvm.delegates.procedure.FailoverVariables;
import com.statefulcvm.delegates.procedure.HealVariables;
import com.statefulcvm.delegates.procedure.RolloutVariables;
import com.statefulcvm.delegates.procedure.LightsOutVariables;
import com.statefulcvm.delegates.procedure.ScaleVariables;
import org.camunda.bpm.engine.FormService;
import org.camunda.bpm.engine.HistoryService;
import org.camunda.bpm.engine.RepositoryService;
import org.camunda.bpm.engine.RuntimeService;
import org.camunda.bpm.engine.TaskService;
import org.camunda.bpm.engine.history.HistoricProcessInstance;
import org.camunda.bpm.engine.repository.ProcessDefinition;
import org.camunda.bpm.engine.runtime.ProcessInstance;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.beans.factory.annotation.Value;
import org.camunda.bpm.engine.task.Task;
import java.net.http.HttpResponse;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.autoconfigure.actuate.observability.AutoConfigureObservability;
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
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Each procedure's start form driven as Tasklist drives it: the form's fields submitted through the engine's REST API
 * ({@code POST /engine-rest/process-definition/key/X/submit-form}), authenticated. A valid start runs under the set's
 * name with the caller recorded; an invalid one is refused with the REST API's message naming the field and leaves
 * no trace, not even in history; a second procedure on a set is refused however it is started. Then the metrics
 * after a rollout.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.DEFINED_PORT)
@ActiveProfiles({"e2e", "start-forms"})
// a Spring Boot test turns metrics export off unless asked: /actuator/prometheus is what this test reads
@AutoConfigureObservability
@ExtendWith(OutputCaptureExtension.class)
class StartFormsTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SET = "webforms";
    private static final String COMPOSE = "services:\n  web:\n    image: nginxdemos/hello:0.4\n";

    @DynamicPropertySource
    static void port(DynamicPropertyRegistry registry) {
        E2eSupport.onFreePortWithDatabase(registry, "start-forms-test");
    }

    @Autowired
    TestRestTemplate http;
    @Autowired
    RuntimeService runtime;
    @Autowired
    HistoryService history;
    @Autowired
    RepositoryService repository;
    @Autowired
    FormService forms;
    @Autowired
    ProcedureStarts procedures;
    @Autowired
    TaskService tasks;
    @Value("${server.port}")
    int port;

    @AfterEach
    void deleteRunning() {
        for (String key : Set.of(RolloutVariables.PROCESS_KEY, HealVariables.HEAL_PROCESS, FailoverVariables.PROCESS_KEY,
                ScaleVariables.PROCESS_KEY, LightsOutVariables.PROCESS_KEY)) {
            E2eSupport.deleteRunning(runtime, key);
        }
    }

    /** The request Tasklist sends when a start form is submitted: each field a typed variable. */
    private ResponseEntity<String> submit(String processKey, Map<String, Object> fields) {
        Map<String, Object> variables = new LinkedHashMap<>();
        fields.forEach((name, value) -> variables.put(name, Map.of("value", value, "type",
                value instanceof Long ? "Long" : value instanceof Double ? "Double" : value instanceof Boolean ? "Boolean" : "String")));
        HttpHeaders headers = new HttpHeaders();
        headers.setContentType(MediaType.APPLICATION_JSON);
        return http.withBasicAuth("admin", "admin").postForEntity("/engine-rest/process-definition/key/" + processKey + "/submit-form",
                new HttpEntity<>(Map.of("variables", variables), headers), String.class);
    }

    private ProcessInstance started(ResponseEntity<String> answer) throws Exception {
        assertThat(answer.getStatusCode()).as(answer.getBody()).isEqualTo(HttpStatus.OK);
        String id = JSON.readTree(answer.getBody()).get("id").asText();
        return runtime.createProcessInstanceQuery().processInstanceId(id).singleResult();
    }

    /** Refused with the status and the field-named message, and nothing of the procedure exists, running or in history. */
    private void refused(String processKey, ResponseEntity<String> answer, HttpStatus status, String message) throws Exception {
        assertThat(answer.getStatusCode()).as(answer.getBody()).isEqualTo(status);
        JsonNode body = JSON.readTree(answer.getBody());
        assertThat(body.get("message").asText()).contains(message);
    }

    private long everStarted(String processKey) {
        return history.createHistoricProcessInstanceQuery().processDefinitionKey(processKey).count();
    }

    private Object variable(ProcessInstance instance, String name) {
        return history.createHistoricVariableInstanceQuery().processInstanceId(instance.getId()).variableName(name)
                .singleResult() == null ? null : history.createHistoricVariableInstanceQuery()
                .processInstanceId(instance.getId()).variableName(name).singleResult().getValue();
    }

    @Test
    void onlyTheOperatorProceduresAreStartableInTasklistEachWithItsStartForm() {
        Set<String> startable = repository.createProcessDefinitionQuery().latestVersion().startableInTasklist().list().stream()
                .map(ProcessDefinition::getKey).collect(Collectors.toSet());
        assertThat(startable).isEqualTo(procedures.procedures()).contains("rollout", "heal", "failover", "scale", "lights-out-recovery");
        Set<String> helpers = repository.createProcessDefinitionQuery().latestVersion().notStartableInTasklist().list().stream()
                .map(ProcessDefinition::getKey).collect(Collectors.toSet());
        assertThat(helpers).contains("run-hook", "attest-instance", "admit-instance", "drain-generic", "rejoin-etcd",
                "add-etcd", "join-patroni", "leave-consul");
        for (String key : startable) {
            ProcessDefinition definition = repository.createProcessDefinitionQuery().processDefinitionKey(key).latestVersion().singleResult();
            assertThat(forms.getStartFormData(definition.getId()).getCamundaFormRef().getKey()).isEqualTo("start-" + key);
        }
    }

    /** An approval appears in Tasklist a few steps after a start: the filter the application creates refreshes itself. */
    @Test
    void theAllTasksFilterRefreshesItself(@Autowired org.camunda.bpm.engine.FilterService filters) {
        assertThat(filters.createFilterQuery().filterName("All tasks").list()).hasSize(1)
                .allSatisfy(filter -> assertThat(filter.getProperties()).containsEntry("refresh", true));
    }

    @Test
    void rolloutFormStartsTheSameRolloutAsRestAndOnlyOnePerSet() throws Exception {
        long before = everStarted("rollout");
        refused("rollout", submit("rollout", Map.of(RolloutVariables.REPLICA_SET, SET)), HttpStatus.BAD_REQUEST,
                "dockerCompose: is required");
        refused("rollout", submit("rollout", Map.of(RolloutVariables.REPLICA_SET, "nosuchset", "dockerCompose", COMPOSE)),
                HttpStatus.BAD_REQUEST,
                "replicaSet: unknown replica set 'nosuchset'");
        refused("rollout", submit("rollout", Map.of("dockerCompose", COMPOSE)), HttpStatus.BAD_REQUEST, "replicaSet: is required");
        refused("rollout", submit("rollout", Map.of(RolloutVariables.REPLICA_SET, SET, "dockerCompose", COMPOSE,
                "updatePolicy", "maxSurge: 1")),
                HttpStatus.BAD_REQUEST, "updatePolicy: must be a JSON object");
        refused("rollout", submit("rollout", Map.of(RolloutVariables.REPLICA_SET, SET, "dockerCompose", COMPOSE,
                "updatePolicy", "{\"maxUnavailable\": -1}")),
                HttpStatus.BAD_REQUEST, "maxUnavailable");
        assertThat(everStarted("rollout")).as("a refused start leaves nothing, not even history").isEqualTo(before);

        // webapproved asks for an approval before it rolls out: the rollout waits in Tasklist while the second starts are tried
        ProcessInstance rollout = started(submit("rollout", Map.of(RolloutVariables.REPLICA_SET, "webapproved", "dockerCompose", COMPOSE,
                "updatePolicy", "{\"maxUnavailable\": 1}")));
        assertThat(rollout.getBusinessKey()).isEqualTo("webapproved");
        assertThat(variable(rollout, RolloutVariables.REQUESTED_BY)).isEqualTo("admin");
        assertThat(variable(rollout, RolloutVariables.TARGET_COMPOSE)).isEqualTo(COMPOSE);
        assertThat(variable(rollout, RolloutVariables.UPDATE_POLICY_OVERRIDE)).isEqualTo("{\"maxUnavailable\":1}");
        assertThat(variable(rollout, "dockerCompose")).isNull();
        await().atMost(Duration.ofSeconds(60)).until(() -> tasks.createTaskQuery().processInstanceId(rollout.getId()).count() == 1);

        refused("rollout", submit("rollout", Map.of(RolloutVariables.REPLICA_SET, "webapproved", "dockerCompose", COMPOSE)),
                HttpStatus.CONFLICT,
                "a rollout of 'webapproved' is already running");
        // started from the engine directly, with a forged requestedBy: the same check
        assertThatThrownBy(() -> runtime.startProcessInstanceByKey("rollout", "webapproved",
                Map.of(RolloutVariables.REPLICA_SET, "webapproved", RolloutVariables.TARGET_COMPOSE, COMPOSE, RolloutVariables.REQUESTED_BY, "mallory")))
                .isInstanceOf(ProcedureStartRefused.class).hasMessageContaining("a rollout of 'webapproved' is already running");
        // and our REST API says the same
        HttpHeaders headers = new HttpHeaders();
        headers.setContentType(MediaType.APPLICATION_JSON);
        ResponseEntity<String> rest = http.withBasicAuth("admin", "admin").postForEntity("/api/replica-sets/webapproved/rollouts",
                new HttpEntity<>(JSON.writeValueAsString(Map.of("dockerCompose", COMPOSE)), headers), String.class);
        refused("rollout", rest, HttpStatus.CONFLICT, "a rollout of 'webapproved' is already running");
        assertThat(runtime.createProcessInstanceQuery().processDefinitionKey("rollout").processInstanceBusinessKey("webapproved").count())
                .isEqualTo(1);
    }

    /** Issue 18: a compose is checked before any procedure starts, on every start path, with the line and the reason. */
    @Test
    void aComposeThatIsNoComposeIsRefusedOnEveryStartPathWithItsLine() throws Exception {
        long before = everStarted("rollout");
        String notYaml = "this is: [not valid yaml";
        String noImage = "services:\n  web:\n    ports: [\"8080:80\"]\n";

        refused("rollout", submit("rollout", Map.of(RolloutVariables.REPLICA_SET, SET, "dockerCompose", notYaml)), HttpStatus.BAD_REQUEST,
                "dockerCompose: line 1: not valid YAML");
        Map<String, Object> variables = Map.of(RolloutVariables.REPLICA_SET, Map.of("value", SET, "type", "String"),
                RolloutVariables.TARGET_COMPOSE, Map.of("value", noImage, "type", "String"));
        HttpHeaders json = new HttpHeaders();
        json.setContentType(MediaType.APPLICATION_JSON);
        refused("rollout", http.withBasicAuth("admin", "admin").postForEntity("/engine-rest/process-definition/key/rollout/start",
                new HttpEntity<>(Map.of("variables", variables), json), String.class), HttpStatus.BAD_REQUEST,
                "dockerCompose: line 2: service 'web' has neither 'image' nor 'build'");
        assertThatThrownBy(() -> runtime.startProcessInstanceByKey("rollout", SET,
                Map.of(RolloutVariables.REPLICA_SET, SET, RolloutVariables.TARGET_COMPOSE, "services: {}\n")))
                .hasMessageContaining("dockerCompose: line 1: 'services' must be a mapping of at least one service");
        ResponseEntity<String> rest = http.withBasicAuth("admin", "admin").postForEntity("/api/replica-sets/" + SET + "/rollouts",
                new HttpEntity<>(JSON.writeValueAsString(Map.of("dockerCompose", notYaml)), json), String.class);
        assertThat(rest.getStatusCode()).isEqualTo(HttpStatus.BAD_REQUEST);
        assertThat(rest.getBody()).contains("dockerCompose: line 1: not valid YAML");
        assertThat(everStarted("rollout")).as("nothing started, not even history").isEqualTo(before);
    }

    @Test
    void healFormChecksTheInstanceAndOneHealPerInstance() throws Exception {
        long before = everStarted("heal");
        refused("heal", submit("heal", Map.of(HealVariables.REPLICA_SET, SET)), HttpStatus.BAD_REQUEST, "ordinal: is required");
        refused("heal", submit("heal", Map.of(HealVariables.REPLICA_SET, SET, HealVariables.ORDINAL, 7L)), HttpStatus.BAD_REQUEST,
                "ordinal: must be between 0 and 1 (replica set 'webforms' has 2 replicas), was 7");
        refused("heal", submit("heal", Map.of(HealVariables.REPLICA_SET, "nosuchset", HealVariables.ORDINAL, 0L)),
                HttpStatus.BAD_REQUEST,
                "replicaSet: unknown replica set 'nosuchset'");
        assertThat(everStarted("heal")).isEqualTo(before);

        ProcessInstance heal = started(submit("heal", Map.of(HealVariables.REPLICA_SET, SET, HealVariables.ORDINAL, 1.0,
                HealVariables.REASON, "looks stuck")));
        assertThat(heal.getBusinessKey()).isEqualTo("webforms/1");
        assertThat(variable(heal, HealVariables.SLOT)).isEqualTo("webforms-1");
        assertThat(variable(heal, HealVariables.ORDINAL)).isEqualTo(1);
        assertThat(variable(heal, HealVariables.HEAL_TRIGGER)).isEqualTo(HealVariables.TRIGGER_OPERATOR);
        assertThat(variable(heal, HealVariables.REQUESTED_BY)).isEqualTo("admin");
        assertThat(variable(heal, HealVariables.HEAL_REASON)).isEqualTo("requested by admin: looks stuck");
        await().atMost(Duration.ofSeconds(60)).until(() -> tasks.createTaskQuery().processInstanceId(heal.getId()).count() == 1);
        refused("heal", submit("heal", Map.of(HealVariables.REPLICA_SET, SET, HealVariables.ORDINAL, 1L)), HttpStatus.CONFLICT,
                "a heal of webforms-1 is already running");
        assertThat(runtime.createProcessInstanceQuery().processDefinitionKey("heal").count()).isEqualTo(1);
    }

    @Test
    void failoverFormTakesPatroniSetsOnlyAndOneFailoverPerSet() throws Exception {
        long before = everStarted("failover");
        refused("failover", submit("failover", Map.of(FailoverVariables.REPLICA_SET, SET)), HttpStatus.BAD_REQUEST,
                "replica set 'webforms' is workload type 'generic': failover.bpmn fails over workload type patroni only");
        refused("failover", submit("failover", Map.of()), HttpStatus.BAD_REQUEST, "replicaSet: is required");
        assertThat(everStarted("failover")).isEqualTo(before);

        // the simulator's Patroni answers behind every running CVM of the set: with all three down, none does, and the
        // failover waits out its long grace
        await().atMost(Duration.ofSeconds(30)).until(() -> crashAll("pgforms-0", "pgforms-1", "pgforms-2"));
        ProcessInstance failover = started(submit("failover", Map.of(FailoverVariables.REPLICA_SET, "pgforms",
                FailoverVariables.REASON, "leader gone")));
        assertThat(failover.getBusinessKey()).isEqualTo("pgforms");
        assertThat(variable(failover, FailoverVariables.REQUESTED_BY)).isEqualTo("admin");
        assertThat(variable(failover, FailoverVariables.FAILOVER_REASON)).isEqualTo("requested by admin: leader gone");
        await().atMost(Duration.ofSeconds(60)).until(() -> "WAITING".equals(runtime.getVariable(failover.getId(), FailoverVariables.LEADER_VERDICT)));
        refused("failover", submit("failover", Map.of(FailoverVariables.REPLICA_SET, "pgforms")), HttpStatus.CONFLICT,
                "a failover of replica set 'pgforms' is already running");
        HttpHeaders headers = new HttpHeaders();
        headers.setContentType(MediaType.APPLICATION_JSON);
        // the engine REST API's start at an activity past the start event, skipping custom listeners: still checked
        String atActivity = "{\"businessKey\": \"pgforms\", \"variables\": {\"replicaSet\": {\"value\": \"pgforms\"}},"
                + " \"skipCustomListeners\": true,"
                + " \"startInstructions\": [{\"type\": \"startBeforeActivity\", \"activityId\": \"Task_CheckLeaderLost\"}]}";
        refused("failover", http.withBasicAuth("admin", "admin").postForEntity("/engine-rest/process-definition/key/failover/start",
                new HttpEntity<>(atActivity, headers), String.class), HttpStatus.CONFLICT, "a failover of replica set 'pgforms' is already running");
        ResponseEntity<String> rest = http.withBasicAuth("admin", "admin").postForEntity("/api/replica-sets/pgforms/failover",
                new HttpEntity<>("{}", headers), String.class);
        assertThat(rest.getStatusCode()).isEqualTo(HttpStatus.CONFLICT);
        assertThat(runtime.createProcessInstanceQuery().processDefinitionKey("failover").count()).isEqualTo(1);
    }

    @Test
    void scaleFormChecksTheCountAsTheRestApiDoes() throws Exception {
        long before = everStarted("scale");
        refused("scale", submit("scale", Map.of(ScaleVariables.REPLICA_SET, SET)), HttpStatus.BAD_REQUEST, "replicas: is required");
        refused("scale", submit("scale", Map.of(ScaleVariables.REPLICA_SET, SET, ScaleVariables.REPLICAS, 0L)),
                HttpStatus.BAD_REQUEST,
                "replicas: must be at least 1 (was 0)");
        refused("scale", submit("scale", Map.of(ScaleVariables.REPLICA_SET, SET, ScaleVariables.REPLICAS, 2.5)),
                HttpStatus.BAD_REQUEST,
                "replicas: must be a whole number");
        assertThat(everStarted("scale")).isEqualTo(before);

        // the count the set has: the procedure plans and ends without a change
        ProcessInstance scale = started(submit("scale", Map.of(ScaleVariables.REPLICA_SET, SET, ScaleVariables.REPLICAS, 2.0)));
        assertThat(scale.getBusinessKey()).isEqualTo(SET);
        assertThat(variable(scale, ScaleVariables.REQUESTED_REPLICAS)).isEqualTo(2);
        assertThat(variable(scale, ScaleVariables.REQUESTED_BY)).isEqualTo("admin");
        HistoricProcessInstance ended = await().atMost(Duration.ofSeconds(60)).until(() -> history.createHistoricProcessInstanceQuery()
                .processInstanceId(scale.getId()).finished().singleResult(), p -> p != null);
        assertThat(ended.getEndActivityId()).isEqualTo("EndEvent_NoChange");
    }

    @Test
    void lightsOutFormRecordsWhoAndWhyAndRefusesASecondProcedureOfTheSet() throws Exception {
        long before = everStarted("lights-out-recovery");
        refused("lights-out-recovery", submit("lights-out-recovery", Map.of()), HttpStatus.BAD_REQUEST, "replicaSet: is required");
        refused("lights-out-recovery", submit("lights-out-recovery", Map.of(LightsOutVariables.REPLICA_SET, "nosuch")),
                HttpStatus.BAD_REQUEST,
                "replicaSet: unknown replica set 'nosuch'");
        assertThat(everStarted("lights-out-recovery")).isEqualTo(before);

        // the set runs: a recovery restarts every member, so the form's override is asked for, with the reason
        refused("lights-out-recovery", submit("lights-out-recovery", Map.of(LightsOutVariables.REPLICA_SET, SET,
                LightsOutVariables.REASON, "power loss")), HttpStatus.CONFLICT, "is not in an outage");
        assertThat(everStarted("lights-out-recovery")).isEqualTo(before);
        ProcessInstance recovery = started(submit("lights-out-recovery", Map.of(LightsOutVariables.REPLICA_SET, SET,
                LightsOutVariables.REASON, "power loss", LightsOutVariables.OVERRIDE_NO_OUTAGE, true)));
        assertThat(variable(recovery, LightsOutVariables.OVERRIDE_NO_OUTAGE)).isEqualTo(true);
        assertThat(recovery.getBusinessKey()).isEqualTo(SET);
        assertThat(variable(recovery, LightsOutVariables.REQUESTED_BY)).isEqualTo("admin");
        assertThat(variable(recovery, LightsOutVariables.LIGHTS_OUT_REASON)).isEqualTo("requested by admin: power loss");
        refused("lights-out-recovery", submit("lights-out-recovery", Map.of(LightsOutVariables.REPLICA_SET, SET)),
                HttpStatus.CONFLICT,
                "a lights-out recovery of replica set 'webforms' is already running");
        refused("rollout", submit("rollout", Map.of(RolloutVariables.REPLICA_SET, SET, "dockerCompose", COMPOSE)),
                HttpStatus.CONFLICT,
                "lights-out recovery " + recovery.getId() + " of 'webforms' is running");
        assertThat(runtime.createProcessInstanceQuery().processDefinitionKey("lights-out-recovery").count()).isEqualTo(1);
    }

    @Test
    void metricsAfterARolloutShowItsOutcomeAndStepTimes() throws Exception {
        HttpHeaders headers = new HttpHeaders();
        headers.setContentType(MediaType.APPLICATION_JSON);
        String compose = "services:\n  web:\n    image: nginxdemos/hello:0.5\n";
        ResponseEntity<String> answer = http.withBasicAuth("admin", "admin").postForEntity("/api/replica-sets/" + SET + "/rollouts",
                new HttpEntity<>(JSON.writeValueAsString(Map.of("dockerCompose", compose)), headers), String.class);
        assertThat(answer.getStatusCode()).as(answer.getBody()).isEqualTo(HttpStatus.CREATED);
        String pid = JSON.readTree(answer.getBody()).get("processInstanceId").asText();
        HistoricProcessInstance ended = await().atMost(Duration.ofSeconds(180)).pollInterval(Duration.ofMillis(500))
                .until(() -> history.createHistoricProcessInstanceQuery().processInstanceId(pid).finished().singleResult(), p -> p != null);
        assertThat(ended.getEndActivityId()).isEqualTo("EndEvent_RolloutCompleted");

        assertThat(http.getForEntity("/actuator/prometheus", String.class).getStatusCode()).isEqualTo(HttpStatus.UNAUTHORIZED);
        ResponseEntity<String> scrape = http.withBasicAuth("admin", "admin").getForEntity("/actuator/prometheus", String.class);
        assertThat(scrape.getStatusCode()).isEqualTo(HttpStatus.OK);
        assertThat(scrape.getBody())
                .contains("orchestrator_procedures_total{outcome=\"RolloutCompleted\",procedure=\"rollout\"}")
                .contains("orchestrator_step_duration_seconds_count{procedure=\"rollout\",step=\"Task_PlanRollout\"}")
                .contains("orchestrator_step_duration_seconds_count{procedure=\"rollout\",step=\"CallActivity_AttestInstance\"}")
                .contains("orchestrator_procedure_starts_total{procedure=\"rollout\",result=\"started\"}")
                .contains("orchestrator_attestation_verdicts_total{process=\"attest-instance\",verdict=\"InstanceAdmitted\"}")
                .contains("orchestrator_approvals_open")
                .contains("orchestrator_phala_calls_seconds_count{operation=\"");
        // every orchestrator metric of the running application has HELP text (MetricHelp)
        assertThat(scrape.getBody().lines().filter(line -> line.startsWith("# HELP orchestrator_")).toList()).hasSizeGreaterThan(5);
        assertThat(com.statefulcvm.web.metrics.MetricHelpTest.helpLinesWithoutText(scrape.getBody())).isEmpty();
    }

    /**
     * Refusals through Tasklist's own API (the webapp session and its CSRF token, as Tasklist's start form submits) and
     * through the engine's REST API: each answers 400 or 409 with the reason, and leaves one INFO line in the log, no
     * ERROR and no stack trace (the engine logged ENGINE-16004 with a stack trace per refusal before).
     */
    @Test
    void aRefusedStartIsAMessageAndOneLogLineOnEveryPath(CapturedOutput output) throws Exception {
        int mark = output.getAll().length();
        WebappSession tasklist = WebappSession.login(port, "admin", "admin", "tasklist");
        String rollout = repository.createProcessDefinitionQuery().processDefinitionKey("rollout").latestVersion().singleResult().getId();
        String scale = repository.createProcessDefinitionQuery().processDefinitionKey("scale").latestVersion().singleResult().getId();

        HttpResponse<String> unknownSet = tasklist.post(WebappSession.ENGINE_API + "/process-definition/" + rollout + "/submit-form",
                formVariables(Map.of(RolloutVariables.REPLICA_SET, "nosuchset", "dockerCompose", COMPOSE)));
        assertThat(unknownSet.statusCode()).as(unknownSet.body()).isEqualTo(400);
        assertThat(JSON.readTree(unknownSet.body()).get("message").asText()).contains("replicaSet: unknown replica set 'nosuchset'");
        HttpResponse<String> negative = tasklist.post(WebappSession.ENGINE_API + "/process-definition/" + scale + "/submit-form",
                formVariables(Map.of(ScaleVariables.REPLICA_SET, SET, ScaleVariables.REPLICAS, -1)));
        assertThat(negative.statusCode()).as(negative.body()).isEqualTo(400);
        assertThat(JSON.readTree(negative.body()).get("message").asText()).contains("replicas: must be at least 1 (was -1)");
        refused("scale", submit("scale", Map.of(ScaleVariables.REPLICA_SET, SET, ScaleVariables.REPLICAS, -1L)),
                HttpStatus.BAD_REQUEST, "replicas: must be at least 1");
        // and Tasklist goes on working for the same session
        assertThat(tasklist.get(WebappSession.ENGINE_API + "/filter?firstResult=0&maxResults=2000&itemCount=false&resourceType=Task")
                .statusCode()).isEqualTo(200);

        String log = output.getAll().substring(mark);
        assertThat(log).doesNotContain("ENGINE-16004").doesNotContain(" ERROR ").doesNotContain("\tat org.camunda");
        assertThat(log.lines().filter(line -> line.contains("refused (400")).toList()).hasSize(3)
                .allSatisfy(line -> assertThat(line).contains(" INFO "));
    }

    /**
     * An approval answered without a decision, through Tasklist's own API: a form error (400 with the reason, not the
     * 500 of the engine's wrapped TaskListener exception), one INFO line, the task still open; then rejected with a
     * comment, which the rollout's report shows beside who decided.
     */
    @Test
    void anApprovalWithoutADecisionIsAFormErrorAndTheCommentReachesTheReport(CapturedOutput output) throws Exception {
        ProcessInstance rollout = started(submit("rollout", Map.of(RolloutVariables.REPLICA_SET, "webapproved",
                "dockerCompose", COMPOSE)));
        Task approval = await().atMost(Duration.ofSeconds(60)).until(() -> tasks.createTaskQuery().processInstanceId(rollout.getId())
                .singleResult(), t -> t != null);
        int mark = output.getAll().length();
        WebappSession tasklist = WebappSession.login(port, "admin", "admin", "tasklist");
        HttpResponse<String> undecided = tasklist.post(WebappSession.ENGINE_API + "/task/" + approval.getId() + "/submit-form",
                formVariables(Map.of(RolloutVariables.COMMENT, "looks fine")));
        assertThat(undecided.statusCode()).as(undecided.body()).isEqualTo(400);
        assertThat(JSON.readTree(undecided.body()).get("message").asText()).contains("approved must be the boolean true or false: choose approve or reject (was missing)")
                .doesNotContain("ENGINE-03051");
        assertThat(tasks.createTaskQuery().taskId(approval.getId()).count()).as("the task stays open").isEqualTo(1);
        String log = output.getAll().substring(mark);
        assertThat(log).doesNotContain("ENGINE-16004").doesNotContain(" ERROR ").doesNotContain("\tat org.camunda");
        assertThat(log.lines().filter(line -> line.contains("refused: approved must be")).toList()).hasSize(1);

        HttpResponse<String> rejected = tasklist.post(WebappSession.ENGINE_API + "/task/" + approval.getId() + "/submit-form",
                "{\"variables\": {\"approved\": {\"value\": false}, \"comment\": {\"value\": \"not before the freeze ends\"}}}");
        assertThat(rejected.statusCode()).as(rejected.body()).isEqualTo(204);
        JsonNode report = JSON.readTree(http.withBasicAuth("admin", "admin").getForObject("/api/rollouts/" + rollout.getId(), String.class));
        assertThat(report.get("approvals")).hasSize(1);
        assertThat(report.get("approvals").get(0).get("decision").asText()).isEqualTo("rejected");
        assertThat(report.get("approvals").get(0).get("by").asText()).isEqualTo("admin");
        assertThat(report.get("approvals").get(0).get("comment").asText()).isEqualTo("not before the freeze ends");
    }

    /**
     * Our /api with the webapps' session, as the Cockpit plugins call it: reads with the session alone; a modifying
     * request only with the session's CSRF token (a page of another site can make the browser send the cookie, not the
     * token); without a session a plugin's request gets a plain 401, a script's the basic-auth challenge as before.
     */
    @Test
    void theApiTakesTheWebappSessionOnlyWithItsCsrfToken() throws Exception {
        WebappSession cockpit = WebappSession.login(port, "admin", "admin", "cockpit");
        HttpResponse<String> fleet = cockpit.get("/api/fleet");
        assertThat(fleet.statusCode()).as(fleet.body()).isEqualTo(200);
        assertThat(JSON.readTree(fleet.body()).get("you").get("user").asText()).isEqualTo("admin");
        String plan = JSON.writeValueAsString(Map.of("dockerCompose", COMPOSE));
        HttpResponse<String> forged = cockpit.postWithoutCsrfToken("/api/replica-sets/" + SET + "/rollouts/plan", plan);
        assertThat(forged.statusCode()).isEqualTo(403);
        assertThat(forged.body()).contains("CSRF token");
        HttpResponse<String> planned = cockpit.post("/api/replica-sets/" + SET + "/rollouts/plan", plan);
        assertThat(planned.statusCode()).as(planned.body()).isEqualTo(200);

        HttpResponse<String> noSession = WebappSession.anonymous(port).getWithHeader("/api/fleet", "X-XSRF-TOKEN", "stale");
        assertThat(noSession.statusCode()).isEqualTo(401);
        assertThat(noSession.headers().firstValue("WWW-Authenticate")).isEmpty();
        HttpResponse<String> script = WebappSession.anonymous(port).get("/api/fleet");
        assertThat(script.statusCode()).isEqualTo(401);
        assertThat(script.headers().firstValue("WWW-Authenticate")).hasValueSatisfying(v -> assertThat(v).startsWith("Basic"));
    }

    /** Form fields as Tasklist's Camunda Forms submit them: {"variables": {"name": {"value": ...}}}, the type left to the engine. */
    private static String formVariables(Map<String, Object> fields) throws Exception {
        Map<String, Object> variables = new LinkedHashMap<>();
        fields.forEach((name, value) -> variables.put(name, Map.of("value", value)));
        return JSON.writeValueAsString(Map.of("variables", variables));
    }

    /** Crashes each CVM once it exists and runs (the bootstrap creates them); true once all are stopped. */
    private boolean crashAll(String... cvms) {
        boolean allStopped = true;
        for (String cvm : cvms) {
            ResponseEntity<String> crashed = http.postForEntity("/simulator/_admin/cvms/" + cvm + "/crash", null, String.class);
            allStopped &= crashed.getStatusCode() == HttpStatus.OK && crashed.getBody().contains("\"stopped\"");
        }
        return allStopped;
    }
}
