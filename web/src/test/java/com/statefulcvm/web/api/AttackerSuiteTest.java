package com.statefulcvm.web.api;

import com.statefulcvm.web.WebappSession;
import com.statefulcvm.web.SimulatorView;
import com.statefulcvm.web.RolloutDriver;
import com.statefulcvm.web.E2eSupport;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.statefulcvm.connectors.phala.PhalaCloudClient;
import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.delegates.procedure.RolloutVariables;
import com.statefulcvm.delegates.support.ReplicaSets;
import com.statefulcvm.fleet.ComposeText;
import com.statefulcvm.fleet.Revision;
import com.statefulcvm.fleet.RevisionHistory;
import org.camunda.bpm.engine.HistoryService;
import org.camunda.bpm.engine.IdentityService;
import org.camunda.bpm.engine.RuntimeService;
import org.camunda.bpm.engine.TaskService;
import org.camunda.bpm.engine.identity.User;
import org.camunda.bpm.engine.task.Task;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.client.TestRestTemplate;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.HttpEntity;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The attacker suite of issue 19: a hostile operator ({@code olivia}), an approver who also operates ({@code april})
 * and a viewer ({@code vera}) try every way past an approval that was found (and the ones found while closing them),
 * through every path that reaches the engine: our API, the engine's REST API, Tasklist's own API (a logged-in browser
 * session), the Java API. Each attempt must be refused with a message that says why, and leave everything as it was:
 * no CVM changes in the simulator, no variable of the rollout, no new revision, no new instance. Four-eyes is on for
 * the set ({@code otto}, another operator, requests the rollouts under attack). Each test here failed on the code
 * before the guards (docs/operations.md, "The attacker suite").
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.DEFINED_PORT)
@ActiveProfiles("e2e")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AttackerSuiteTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SET = "webdemo";
    private static final String PASSWORD = "s3cret-enough";
    private static final String REQUESTER = "otto";
    private static final String OPERATOR = "olivia";
    private static final String APPROVER = "april";
    private static final String VIEWER = "vera";
    /** The account whose password is guessed: another operator's. */
    private static final String GUESSED = "tess";
    private static final String EVIL = "services:\n  web:\n    image: attacker/backdoor:1\n";

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        E2eSupport.onFreePortWithDatabase(registry, "attacker-suite");
        // the e2e profile turns four-eyes off for its single-user tests; the attacks run against a production set
        registry.add("orchestrator.fleet.four-eyes", () -> "true");
        // as behind a TLS proxy on this machine: the clients of the login attack are told apart by X-Forwarded-For
        registry.add("orchestrator.security.trusted-proxies", () -> "127\\.0\\.0\\.1");
        // a guesser's first wait outlasts the test's own pace on a loaded machine
        registry.add("orchestrator.security.login-throttle.first-delay", () -> "PT60S");
    }

    @Autowired
    TestRestTemplate http;
    @LocalServerPort
    int port;
    @Autowired
    IdentityService identity;
    @Autowired
    RuntimeService runtime;
    @Autowired
    TaskService tasks;
    @Autowired
    HistoryService history;
    @Autowired
    RevisionHistory revisions;
    @Autowired
    ReplicaSets replicaSets;
    @Autowired
    PhalaCloudClient phala;

    private int imageTag = 10;

    @BeforeAll
    void users() {
        user(REQUESTER, "operators");
        user(OPERATOR, "operators");
        user(APPROVER, "operators", "approvers");
        user(VIEWER, "viewers");
        user(GUESSED, "operators");
    }

    @AfterEach
    void deleteRunning() {
        E2eSupport.deleteRunning(runtime, RolloutVariables.PROCESS_KEY);
        E2eSupport.deleteRunning(runtime, "heal");
        identity.clearAuthentication();
    }

    // ---- starts: what a procedure decides is not the caller's to give

    /**
     * The reproduced bypass: a rollout started with {@code rollbackOf} ran as an automatic rollback, without any
     * approval, and put the caller's compose on the CVMs. Tried through the engine's REST start, its start form,
     * Tasklist's start form (a browser session) and the Java API.
     */
    @Test
    void aStartCannotClaimToBeAnAutomaticRollback() throws Exception {
        Snapshot before = snapshot(null);
        String variables = "{\"replicaSet\": {\"value\": \"webdemo\"}, \"targetCompose\": {\"value\": " + JSON.writeValueAsString(EVIL)
                + "}, \"rollbackOf\": {\"value\": \"an-earlier-rollout\"}}";
        String form = "{\"replicaSet\": {\"value\": \"webdemo\"}, \"dockerCompose\": {\"value\": " + JSON.writeValueAsString(EVIL)
                + "}, \"rollbackOf\": {\"value\": \"an-earlier-rollout\"}}";
        String message = "rollbackOf: not a start variable of rollout";

        refused(as(OPERATOR).postForEntity("/engine-rest/process-definition/key/rollout/start",
                json("{\"variables\": " + variables + "}"), String.class), HttpStatus.BAD_REQUEST, message);
        refused(as(OPERATOR).postForEntity("/engine-rest/process-definition/key/rollout/submit-form",
                json("{\"variables\": " + form + "}"), String.class), HttpStatus.BAD_REQUEST, message);
        String definition = JSON.readTree(as(OPERATOR).getForObject("/engine-rest/process-definition/key/rollout", String.class)).get("id").asText();
        HttpResponse<String> tasklist = WebappSession.login(port, OPERATOR, PASSWORD, "tasklist")
                .post(WebappSession.ENGINE_API + "/process-definition/" + definition + "/submit-form", "{\"variables\": " + form + "}");
        assertThat(tasklist.statusCode()).as(tasklist.body()).isEqualTo(400);
        assertThat(tasklist.body()).contains(message);
        asUser(OPERATOR, "operators", () -> assertThatThrownBy(() -> runtime.startProcessInstanceByKey("rollout", "webdemo",
                Map.of("replicaSet", "webdemo", "targetCompose", EVIL, "rollbackOf", "x"))).hasMessageContaining(message));
        // the viewer may not start anything at all
        assertThat(as(VIEWER).postForEntity("/engine-rest/process-definition/key/rollout/start",
                json("{\"variables\": " + variables + "}"), String.class).getStatusCode()).isIn(HttpStatus.FORBIDDEN, HttpStatus.NOT_FOUND);
        assertNothingChanged(before);
    }

    /**
     * A start at a chosen activity skips the start event and what follows it (the plan, the approval), and its
     * instructions may carry variables set after the start check: an admin's tool. Also as a restart of an ended
     * rollout (which starts at activities too), with the ended rollout's variables.
     */
    @Test
    void startInstructionsAndRestartsAreTheAdminsOnly() throws Exception {
        Snapshot before = snapshot(null);
        String pastTheApproval = "{\"variables\": {\"replicaSet\": {\"value\": \"webdemo\"}, \"targetCompose\": {\"value\": "
                + JSON.writeValueAsString(EVIL) + "}}, \"skipCustomListeners\": true, \"skipIoMappings\": true,"
                + " \"startInstructions\": [{\"type\": \"startBeforeActivity\", \"activityId\": \"SubProcess_RollOutInWaves\"}]}";
        String atTheStartWithLateVariables = "{\"variables\": {\"replicaSet\": {\"value\": \"webdemo\"}, \"targetCompose\": {\"value\": "
                + JSON.writeValueAsString(EVIL) + "}}, \"startInstructions\": [{\"type\": \"startBeforeActivity\","
                + " \"activityId\": \"StartEvent_RolloutRequested\", \"variables\": {\"rollbackOf\": {\"value\": \"x\"}}}]}";
        for (String attempt : List.of(pastTheApproval, atTheStartWithLateVariables)) {
            refused(as(OPERATOR).postForEntity("/engine-rest/process-definition/key/rollout/start", json(attempt), String.class),
                    HttpStatus.FORBIDDEN, "user 'olivia' may not start a process at chosen activities");
            assertThat(as(VIEWER).postForEntity("/engine-rest/process-definition/key/rollout/start", json(attempt), String.class)
                    .getStatusCode()).isIn(HttpStatus.FORBIDDEN, HttpStatus.NOT_FOUND);
        }
        // a restart of an ended rollout (one the admin rejected), at the waves, with its last variables
        Waiting ended = waitingRollout(REQUESTER);
        ResponseEntity<String> rejected = admin().postForEntity("/engine-rest/task/" + ended.taskId() + "/complete",
                json("{\"variables\": {\"approved\": {\"value\": false}}}"), String.class);
        assertThat(rejected.getStatusCode()).as(rejected.getBody()).isEqualTo(HttpStatus.NO_CONTENT);
        await().atMost(Duration.ofSeconds(30)).until(() -> history.createHistoricProcessInstanceQuery().processInstanceId(ended.pid()).finished().count() == 1);
        Snapshot afterRejection = snapshot(null);
        String definition = history.createHistoricProcessInstanceQuery().processInstanceId(ended.pid()).singleResult().getProcessDefinitionId();
        String restart = "{\"processInstanceIds\": [\"" + ended.pid() + "\"], \"skipCustomListeners\": true,"
                + " \"instructions\": [{\"type\": \"startBeforeActivity\", \"activityId\": \"SubProcess_RollOutInWaves\"}]}";
        refused(as(OPERATOR).postForEntity("/engine-rest/process-definition/" + definition + "/restart", json(restart), String.class),
                HttpStatus.FORBIDDEN, "may not start a process at chosen activities");
        assertThat(as(VIEWER).postForEntity("/engine-rest/process-definition/" + definition + "/restart", json(restart), String.class)
                .getStatusCode()).isIn(HttpStatus.FORBIDDEN, HttpStatus.NOT_FOUND);
        assertNothingChanged(afterRejection);
        assertThat(before.revisions()).isLessThanOrEqualTo(afterRejection.revisions());
    }

    // ---- a running rollout: its variables and its path are nobody's but the engine's (and an admin's)

    @Test
    void nobodyButAnAdminWritesARolloutsVariables() throws Exception {
        Waiting rollout = waitingRollout(REQUESTER);
        Snapshot before = snapshot(rollout.pid());
        String evil = "{\"value\": " + JSON.writeValueAsString(EVIL) + "}";
        for (String attacker : List.of(OPERATOR, APPROVER, VIEWER)) {
            TestRestTemplate as = as(attacker);
            forbidden(as.exchange("/engine-rest/process-instance/" + rollout.pid() + "/variables/targetCompose", HttpMethod.PUT, json(evil), String.class));
            forbidden(as.postForEntity("/engine-rest/process-instance/" + rollout.pid() + "/variables",
                    json("{\"modifications\": {\"targetCompose\": " + evil + "}}"), String.class));
            forbidden(as.exchange("/engine-rest/process-instance/" + rollout.pid() + "/variables/approvalBeforeRollout", HttpMethod.DELETE,
                    null, String.class));
            forbidden(as.exchange("/engine-rest/execution/" + rollout.pid() + "/localVariables/targetCompose", HttpMethod.PUT, json(evil), String.class));
            // a task's variables are its execution's: writing one would write the rollout's
            forbidden(as.exchange("/engine-rest/task/" + rollout.taskId() + "/variables/targetCompose", HttpMethod.PUT, json(evil), String.class));
            forbidden(as.postForEntity("/engine-rest/task/" + rollout.taskId() + "/variables",
                    json("{\"modifications\": {\"targetCompose\": " + evil + "}}"), String.class));
        }
        assertNothingChanged(before);
    }

    /**
     * Process-instance modification with skipCustomListeners cancelled the approval and started the waves; so would
     * a suspension, a deletion or a migration, in their way. None of them is an operator's.
     */
    @Test
    void nobodyButAnAdminModifiesARollout() throws Exception {
        Waiting rollout = waitingRollout(REQUESTER);
        Snapshot before = snapshot(rollout.pid());
        String modification = "{\"skipCustomListeners\": true, \"skipIoMappings\": true, \"instructions\": ["
                + "{\"type\": \"cancel\", \"activityId\": \"UserTask_ApproveRollout\"},"
                + "{\"type\": \"startBeforeActivity\", \"activityId\": \"SubProcess_RollOutInWaves\"}]}";
        for (String attacker : List.of(OPERATOR, APPROVER, VIEWER)) {
            TestRestTemplate as = as(attacker);
            forbidden(as.postForEntity("/engine-rest/process-instance/" + rollout.pid() + "/modification", json(modification), String.class));
            forbidden(as.exchange("/engine-rest/process-instance/" + rollout.pid() + "/suspended", HttpMethod.PUT,
                    json("{\"suspended\": true}"), String.class));
            forbidden(as.exchange("/engine-rest/process-instance/" + rollout.pid() + "?skipCustomListeners=true", HttpMethod.DELETE, null, String.class));
        }
        asUser(OPERATOR, "operators", () -> assertThatThrownBy(() -> runtime.createProcessInstanceModification(rollout.pid())
                .cancelAllForActivity("UserTask_ApproveRollout").startBeforeActivity("SubProcess_RollOutInWaves").execute(true, true))
                .hasMessageContaining("olivia"));
        assertNothingChanged(before);
    }

    // ---- approvals: only an approver, never the requester, with the form's fields only

    @Test
    void nobodyApprovesTheirOwnRequestAndOperatorsApproveNothing() throws Exception {
        Waiting own = waitingRollout(APPROVER);
        Snapshot before = snapshot(own.pid());
        String approve = "{\"variables\": {\"approved\": {\"value\": true}}}";
        String fourEyes = "four-eyes: user 'april' requested this rollout of replica set 'webdemo' and may not decide its approvals";
        refused(as(APPROVER).postForEntity("/engine-rest/task/" + own.taskId() + "/complete", json(approve), String.class),
                HttpStatus.FORBIDDEN, fourEyes);
        refused(as(APPROVER).postForEntity("/engine-rest/task/" + own.taskId() + "/submit-form", json(approve), String.class),
                HttpStatus.FORBIDDEN, fourEyes);
        HttpResponse<String> tasklist = WebappSession.login(port, APPROVER, PASSWORD, "tasklist").post(WebappSession.ENGINE_API + "/task/" + own.taskId() + "/submit-form", approve);
        assertThat(tasklist.statusCode()).as(tasklist.body()).isEqualTo(403);
        assertThat(tasklist.body()).contains(fourEyes);
        asUser(APPROVER, "approvers", () -> assertThatThrownBy(() -> tasks.complete(own.taskId(), Map.of("approved", true)))
                .hasMessageContaining(fourEyes));
        // an operator, however many: no approval at all, not even of another's request
        for (String attacker : List.of(OPERATOR, REQUESTER, VIEWER)) {
            forbidden(as(attacker).postForEntity("/engine-rest/task/" + own.taskId() + "/complete", json(approve), String.class));
            forbidden(as(attacker).postForEntity("/engine-rest/task/" + own.taskId() + "/claim", json("{\"userId\": \"" + attacker + "\"}"), String.class));
        }
        assertNothingChanged(before);
        assertThat(tasks.createTaskQuery().taskId(own.taskId()).count()).as("the approval is still open").isEqualTo(1);
    }

    /**
     * Completing an approval with one more variable put another compose on the CVMs while the revision recorded the
     * approved one. Tried through every completion the engine has: complete, submit-form, resolve, Tasklist's form,
     * the Java API; and with a field the form only shows, changed.
     */
    @Test
    void anApprovalTakesItsFormsFieldsOnly() throws Exception {
        Waiting rollout = waitingRollout(REQUESTER);
        Snapshot before = snapshot(rollout.pid());
        String withCompose = "{\"variables\": {\"approved\": {\"value\": true}, \"targetCompose\": {\"value\": " + JSON.writeValueAsString(EVIL) + "}}}";
        String message = "targetCompose: not a field of the form 'approve-rollout'";
        for (String path : List.of("complete", "submit-form", "resolve")) {
            refused(as(APPROVER).postForEntity("/engine-rest/task/" + rollout.taskId() + "/" + path, json(withCompose), String.class),
                    HttpStatus.BAD_REQUEST, message);
        }
        HttpResponse<String> tasklist = WebappSession.login(port, APPROVER, PASSWORD, "tasklist").post(WebappSession.ENGINE_API + "/task/" + rollout.taskId() + "/submit-form", withCompose);
        assertThat(tasklist.statusCode()).as(tasklist.body()).isEqualTo(400);
        assertThat(tasklist.body()).contains(message);
        asUser(APPROVER, "approvers", () -> assertThatThrownBy(() -> tasks.complete(rollout.taskId(), Map.of("approved", true, "targetCompose", EVIL)))
                .hasMessageContaining(message));
        // a field the form shows but does not take: only as it is
        refused(as(APPROVER).postForEntity("/engine-rest/task/" + rollout.taskId() + "/complete",
                json("{\"variables\": {\"approved\": {\"value\": true}, \"replicaSet\": {\"value\": \"patroni-demo\"}}}"), String.class),
                HttpStatus.BAD_REQUEST, "replicaSet: not a field of the form 'approve-rollout'");
        // a BPMN error or an escalation thrown at the approval would end or divert it without its form
        refused(as(APPROVER).postForEntity("/engine-rest/task/" + rollout.taskId() + "/bpmnError",
                json("{\"errorCode\": \"any\", \"variables\": {\"targetCompose\": {\"value\": \"x\"}}}"), String.class),
                HttpStatus.FORBIDDEN, "may not throw a BPMN error at task");
        refused(as(APPROVER).postForEntity("/engine-rest/task/" + rollout.taskId() + "/bpmnEscalation",
                json("{\"escalationCode\": \"any\"}"), String.class), HttpStatus.FORBIDDEN, "may not escalate task");
        forbidden(as(VIEWER).postForEntity("/engine-rest/task/" + rollout.taskId() + "/complete", json(withCompose), String.class));
        assertNothingChanged(before);
        assertThat(tasks.createTaskQuery().taskId(rollout.taskId()).count()).as("the approval is still open").isEqualTo(1);

        // the form's own fields, unchanged shown ones included (as Tasklist may send them), are accepted
        ResponseEntity<String> approved = as(APPROVER).postForEntity("/engine-rest/task/" + rollout.taskId() + "/submit-form",
                json("{\"variables\": {\"approved\": {\"value\": true}, \"comment\": {\"value\": \"ok\"}, \"replicaSet\": {\"value\": \"webdemo\"}}}"),
                String.class);
        assertThat(approved.getStatusCode()).as(approved.getBody()).isEqualTo(HttpStatus.NO_CONTENT);
        awaitCompleted(rollout.pid());
        JsonNode report = JSON.readTree(as(VIEWER).getForObject("/api/rollouts/" + rollout.pid(), String.class));
        assertThat(report.get("requestedBy").asText()).isEqualTo(REQUESTER);
        assertThat(report.get("approvedBy")).containsExactly(JSON.getNodeFactory().textNode(APPROVER));
    }

    // ---- the audit trail: the revision names what the CVMs run

    /**
     * Even an admin, who may write any variable, cannot make a revision name one compose while the CVMs get another:
     * the instance steps take the update revision's compose from the registry, and record its hash only from a CVM
     * that runs it.
     */
    @Test
    void theRevisionRecordsTheComposeTheCvmsRun() throws Exception {
        Waiting rollout = waitingRollout(REQUESTER);
        ResponseEntity<String> overwritten = admin().exchange("/engine-rest/process-instance/" + rollout.pid() + "/variables/targetCompose",
                HttpMethod.PUT, json("{\"value\": " + JSON.writeValueAsString(EVIL) + "}"), String.class);
        assertThat(overwritten.getStatusCode()).as("an admin may write variables").isEqualTo(HttpStatus.NO_CONTENT);
        ResponseEntity<String> approved = as(APPROVER).postForEntity("/engine-rest/task/" + rollout.taskId() + "/complete",
                json("{\"variables\": {\"approved\": {\"value\": true}}}"), String.class);
        assertThat(approved.getStatusCode()).as(approved.getBody()).isEqualTo(HttpStatus.NO_CONTENT);
        awaitCompleted(rollout.pid());

        int number = ((Number) history.createHistoricVariableInstanceQuery().processInstanceId(rollout.pid())
                .variableName(RolloutVariables.UPDATE_REVISION).singleResult().getValue()).intValue();
        Revision revision = revisions.revision(SET, number).orElseThrow();
        assertThat(revision.dockerCompose()).isEqualTo(rollout.compose());
        String report = admin().getForObject("/api/rollouts/" + rollout.pid(), String.class);
        for (CvmInfo cvm : cvms()) {
            assertThat(ComposeText.same(cvm.dockerCompose(), rollout.compose())).as(cvm.name() + " runs the approved compose, not "
                    + cvm.dockerCompose() + "; " + report).isTrue();
            assertThat(cvm.composeHash()).as(cvm.name() + " runs what revision " + number + " records").isEqualTo(revision.composeHash());
        }
    }

    // ---- the web: other sites, other machines, big requests, wrong passwords

    /**
     * A page of another site may make an operator's browser send /api's bodyless POSTs (pause, abort, heal) with its
     * cached basic credentials: refused by its Origin, before anything else.
     */
    @Test
    void aPageOfAnotherSiteChangesNothing() throws Exception {
        Waiting rollout = waitingRollout(REQUESTER);
        Snapshot before = snapshot(rollout.pid());
        HttpHeaders foreign = new HttpHeaders();
        foreign.setContentType(MediaType.APPLICATION_JSON);
        foreign.set("Origin", "https://evil.example");
        Map<String, String> requests = new java.util.LinkedHashMap<>();
        requests.put("/api/replica-sets/webdemo/instances/0/heal", "{\"reason\": \"asked by another site\"}");
        requests.put("/api/replica-sets/webdemo/rollouts", JSON.writeValueAsString(Map.of("dockerCompose", EVIL)));
        requests.put("/api/rollouts/" + rollout.pid() + "/abort", "{}");
        requests.put("/engine-rest/process-definition/key/rollout/start", "{}");
        for (String attacker : List.of(OPERATOR, VIEWER)) {
            requests.forEach((path, body) -> refused(as(attacker).postForEntity(path, new HttpEntity<>(body, foreign), String.class),
                    HttpStatus.FORBIDDEN, "a request from the page of another site (https://evil.example) may not change anything here"));
        }
        // the same request from this server's own page (the fleet page) is an operator's like any other
        HttpHeaders own = new HttpHeaders();
        own.setContentType(MediaType.APPLICATION_JSON);
        own.set("Origin", "http://localhost:" + port);
        refused(as(OPERATOR).postForEntity("/api/rollouts/" + rollout.pid() + "/pause", new HttpEntity<>("", own), String.class),
                HttpStatus.CONFLICT, "cannot be paused now");
        assertNothingChanged(before);
    }

    @Test
    void noOtherSiteFramesOurPages() {
        for (String path : List.of("/fleet.html", "/api/replica-sets")) {
            ResponseEntity<String> page = as(VIEWER).getForEntity(path, String.class);
            assertThat(page.getHeaders().getFirst("X-Frame-Options")).as(path).isEqualTo("SAMEORIGIN");
            assertThat(page.getHeaders().getFirst("Content-Security-Policy")).as(path).contains("frame-ancestors 'self'");
        }
    }

    /**
     * The simulator's admin controls crash CVMs and forge evidence without a login: from this machine only. Tried
     * through a proxy (X-Forwarded-For) and on this machine's network address, where the server does not even listen.
     */
    @Test
    void theSimulatorsControlsAndTheServerAnswerOnThisMachineOnly() throws Exception {
        Snapshot before = snapshot(null);
        HttpHeaders proxied = new HttpHeaders();
        proxied.set("X-Forwarded-For", "203.0.113.9");
        refused(http.exchange("/simulator/_admin/cvms/webdemo-0/crash", HttpMethod.POST, new HttpEntity<>(proxied), String.class),
                HttpStatus.FORBIDDEN, "the simulator's admin controls answer only on this machine");
        refused(http.exchange("/simulator/_admin/cvms/webdemo-0/evidence", HttpMethod.POST,
                new HttpEntity<>("{\"tamper\": \"compose-hash\"}", withJson(proxied)), String.class),
                HttpStatus.FORBIDDEN, "the simulator's admin controls answer only on this machine");
        for (java.net.InetAddress address : networkAddresses()) {
            try (java.net.Socket socket = new java.net.Socket()) {
                socket.connect(new java.net.InetSocketAddress(address, port), 2000);
                throw new AssertionError("the server answers on " + address + ": it must listen on loopback only (server.address)");
            } catch (java.net.ConnectException refusedThere) {
                // nobody listens there
            }
        }
        assertNothingChanged(before);
    }

    /** Huge bodies, unbounded queries and objects of any Java type: bounded for every caller. */
    @Test
    void requestsAreBounded() throws Exception {
        Waiting rollout = waitingRollout(REQUESTER);
        Snapshot before = snapshot(rollout.pid());
        // an object variable: kept in the byte-array table, which has no length limit of its own (a string variable has)
        String huge = "{\"value\": \"\\\"" + "x".repeat(3 * 1024 * 1024) + "\\\"\", \"type\": \"Object\", \"valueInfo\": "
                + "{\"objectTypeName\": \"java.lang.String\", \"serializationDataFormat\": \"application/json\"}}";
        for (String attacker : List.of(OPERATOR, VIEWER)) {
            refused(as(attacker).exchange("/engine-rest/process-instance/" + rollout.pid() + "/variables/filler", HttpMethod.PUT,
                    json(huge), String.class), HttpStatus.PAYLOAD_TOO_LARGE, "request body larger than 2097152 bytes");
            refused(as(attacker).getForEntity("/engine-rest/history/process-instance?maxResults=1000000", String.class),
                    HttpStatus.BAD_REQUEST, "Max results limit of 2000 exceeded");
            refused(as(attacker).getForEntity("/engine-rest/history/variable-instance", String.class),
                    HttpStatus.BAD_REQUEST, "An unbound number of results is forbidden");
        }
        // an object of a type outside the allow-list is never deserialized (an admin's write: nobody else writes variables)
        String file = "{\"value\": \"\\\"/etc/passwd\\\"\", \"type\": \"Object\", \"valueInfo\": {\"objectTypeName\": \"java.io.File\","
                + " \"serializationDataFormat\": \"application/json\"}}";
        ResponseEntity<String> stored = admin().exchange("/engine-rest/process-instance/" + rollout.pid() + "/variables/probe",
                HttpMethod.PUT, json(file), String.class);
        if (stored.getStatusCode().is2xxSuccessful()) {
            ResponseEntity<String> read = admin().getForEntity("/engine-rest/process-instance/" + rollout.pid() + "/variables/probe", String.class);
            assertThat(read.getStatusCode().is2xxSuccessful()).as("java.io.File deserialized: " + read.getBody()).isFalse();
            assertThat(read.getBody()).containsIgnoringCase("java.io.File");
        } else {
            assertThat(stored.getBody()).containsIgnoringCase("java.io.File");
        }
        assertThat(revisions.revisions(SET)).hasSize(before.revisions());
    }

    /**
     * Ten wrong passwords locked the account for good, for whoever guessed: a denial of service against any user,
     * admin included. Now the guessing client waits; the account's owner, elsewhere, logs in as always.
     */
    @Test
    void wrongPasswordsSlowTheGuesserAndLockNoAccount() throws Exception {
        HttpHeaders guesser = new HttpHeaders();
        guesser.set("X-Forwarded-For", "203.0.113.7");
        List<HttpStatus> answers = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            answers.add(HttpStatus.valueOf(http.withBasicAuth(GUESSED, "guess-" + i)
                    .exchange("/api/replica-sets", HttpMethod.GET, new HttpEntity<>(guesser), String.class).getStatusCode().value()));
        }
        assertThat(answers.subList(0, 6)).containsOnly(HttpStatus.UNAUTHORIZED);
        assertThat(answers.subList(6, 12)).as("the guesser waits").containsOnly(HttpStatus.TOO_MANY_REQUESTS);
        ResponseEntity<String> waiting = http.withBasicAuth(GUESSED, PASSWORD)
                .exchange("/api/replica-sets", HttpMethod.GET, new HttpEntity<>(guesser), String.class);
        refused(waiting, HttpStatus.TOO_MANY_REQUESTS, "failed logins from 203.0.113.7 in a row");
        assertThat(waiting.getHeaders().getFirst("Retry-After")).isNotNull();
        HttpHeaders owner = new HttpHeaders();
        owner.set("X-Forwarded-For", "198.51.100.4");
        assertThat(as(GUESSED).exchange("/api/replica-sets", HttpMethod.GET, new HttpEntity<>(owner), String.class).getStatusCode())
                .as("the owner, from elsewhere").isEqualTo(HttpStatus.OK);
        assertThat(as(GUESSED).getForEntity("/api/replica-sets", String.class).getStatusCode()).isEqualTo(HttpStatus.OK);
        assertThat(WebappSession.login(port, GUESSED, PASSWORD, "tasklist")).as("and through the webapps' login").isNotNull();
    }

    // ---- fixtures

    private record Waiting(String pid, String taskId, String compose) {
    }

    /** A rollout of the set requested by {@code requester}, waiting for its approval. */
    private Waiting waitingRollout(String requester) throws Exception {
        new RolloutDriver(http, tasks, history, SET).awaitAllRunning(3);
        String compose = "services:\n  web:\n    image: nginxdemos/hello:0." + (imageTag++) + "\n";
        ResponseEntity<String> started = as(requester).postForEntity("/api/replica-sets/webdemo/rollouts",
                json(JSON.writeValueAsString(Map.of("dockerCompose", compose, "updatePolicy", Map.of("progressDeadlineSeconds", 300)))),
                String.class);
        assertThat(started.getStatusCode()).as(started.getBody()).isEqualTo(HttpStatus.CREATED);
        String pid = JSON.readTree(started.getBody()).get("processInstanceId").asText();
        Task task = new RolloutDriver(http, tasks, history, SET).awaitTask(pid, "UserTask_ApproveRollout");
        return new Waiting(pid, task.getId(), compose);
    }

    /** What an attack must not change: the CVMs, the revisions, the rollouts, and one rollout's variables. */
    private record Snapshot(Map<String, String> composeHashes, long events, int revisions, long rollouts, String pid,
                            Map<String, Object> variables) {
    }

    private Snapshot snapshot(String pid) throws Exception {
        Map<String, String> hashes = new HashMap<>();
        cvms().forEach(c -> hashes.put(c.name(), c.composeHash() + "/" + c.status()));
        return new Snapshot(hashes, new SimulatorView(http).lastEventSeq(), revisions.revisions(SET).size(),
                history.createHistoricProcessInstanceQuery().processDefinitionKey(RolloutVariables.PROCESS_KEY).count(),
                pid, pid == null ? Map.of() : new HashMap<>(runtime.getVariables(pid)));
    }

    private void assertNothingChanged(Snapshot before) throws Exception {
        Map<String, String> hashes = new HashMap<>();
        cvms().forEach(c -> hashes.put(c.name(), c.composeHash() + "/" + c.status()));
        assertThat(hashes).as("the CVMs").isEqualTo(before.composeHashes());
        List<JsonNode> events = SimulatorView.of(new SimulatorView(http).eventsSince(before.events()), SET + "-");
        assertThat(events).as("no CVM of the set changed in the simulator").isEmpty();
        assertThat(revisions.revisions(SET)).as("no new revision").hasSize(before.revisions());
        assertThat(history.createHistoricProcessInstanceQuery().processDefinitionKey(RolloutVariables.PROCESS_KEY).count())
                .as("no rollout started, not even one rolled back").isEqualTo(before.rollouts());
        if (before.pid() != null) {
            assertThat(new HashMap<>(runtime.getVariables(before.pid()))).as("the rollout's variables").isEqualTo(before.variables());
        }
    }

    /** Each CVM of the set as Phala shows it one by one (the list leaves the compose out). */
    private List<CvmInfo> cvms() {
        return new ArrayList<>(phala.listAppCvms(replicaSets.appId(replicaSets.spec(SET)))).stream()
                .filter(c -> c.name().startsWith(SET + "-")).map(c -> phala.getCvm(c.id())).toList();
    }

    private void awaitCompleted(String pid) {
        await().atMost(Duration.ofMinutes(3)).until(() -> history.createHistoricProcessInstanceQuery().processInstanceId(pid).finished().count() == 1);
        assertThat(history.createHistoricProcessInstanceQuery().processInstanceId(pid).singleResult().getEndActivityId())
                .isEqualTo("EndEvent_RolloutCompleted");
    }

    private void asUser(String user, String group, Runnable attempt) {
        identity.setAuthentication(user, List.of(group));
        try {
            attempt.run();
        } finally {
            identity.clearAuthentication();
        }
    }

    private TestRestTemplate as(String user) {
        return http.withBasicAuth(user, PASSWORD);
    }

    private TestRestTemplate admin() {
        return http.withBasicAuth("admin", "admin");
    }

    private void user(String id, String... groups) {
        if (identity.createUserQuery().userId(id).count() == 0) {
            User user = identity.newUser(id);
            user.setPassword(PASSWORD);
            identity.saveUser(user);
        }
        for (String group : groups) {
            if (identity.createGroupQuery().groupId(group).count() == 0) {
                // before the roles existed (the code this suite was first run against), a group of that name held nothing
                identity.saveGroup(identity.newGroup(group));
            }
            if (identity.createUserQuery().userId(id).memberOfGroup(group).count() == 0) {
                identity.createMembership(id, group);
            }
        }
    }

    private static void forbidden(ResponseEntity<String> response) {
        assertThat(response.getStatusCode()).as(response.getBody()).isEqualTo(HttpStatus.FORBIDDEN);
        assertThat(response.getBody()).containsPattern("does not have|may not");
    }

    private static void refused(ResponseEntity<String> response, HttpStatus status, String message) {
        assertThat(response.getStatusCode()).as(response.getBody()).isEqualTo(status);
        assertThat(response.getBody()).contains(message);
    }

    private static HttpHeaders withJson(HttpHeaders headers) {
        HttpHeaders copy = new HttpHeaders();
        copy.putAll(headers);
        copy.setContentType(MediaType.APPLICATION_JSON);
        return copy;
    }

    /** This machine's addresses other than loopback (none on a machine without a network). */
    private static List<java.net.InetAddress> networkAddresses() throws Exception {
        List<java.net.InetAddress> addresses = new ArrayList<>();
        for (java.net.NetworkInterface nic : java.util.Collections.list(java.net.NetworkInterface.getNetworkInterfaces())) {
            if (nic.isUp() && !nic.isLoopback()) {
                java.util.Collections.list(nic.getInetAddresses()).stream()
                        .filter(a -> a instanceof java.net.Inet4Address && !a.isLinkLocalAddress()).forEach(addresses::add);
            }
        }
        return addresses;
    }

    private static HttpEntity<String> json(String body) {
        HttpHeaders headers = new HttpHeaders();
        headers.setContentType(MediaType.APPLICATION_JSON);
        return new HttpEntity<>(body, headers);
    }

}
