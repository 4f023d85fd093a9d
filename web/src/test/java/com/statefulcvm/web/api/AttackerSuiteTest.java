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
    /** A user in no group at all (issue 32). */
    private static final String NOBODY = "nina";
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
        user(NOBODY);
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

    // ---- issue 32: a hostile insider with a role

    /**
     * An approver claimed an approval for a viewer (or for a user in no group), and the engine let that user complete
     * it: the report said {@code approvedBy: vera}. Now a claim, a delegation or an assignment for someone else is an
     * admin's, and whoever completes is an approver, whatever was assigned before; the report names the approver.
     */
    @Test
    void onlyAnApproverDecidesWhoeverTheTaskWasClaimedFor() throws Exception {
        Waiting rollout = waitingRollout(REQUESTER);
        Snapshot before = snapshot(rollout.pid());
        String task = "/engine-rest/task/" + rollout.taskId();
        String approve = "{\"variables\": {\"approved\": {\"value\": true}}}";
        for (String other : List.of(VIEWER, NOBODY, REQUESTER)) {
            refused(as(APPROVER).postForEntity(task + "/claim", json("{\"userId\": \"" + other + "\"}"), String.class),
                    HttpStatus.FORBIDDEN, "user 'april' may not claim task 'Approve rollout of webdemo' for user '" + other + "'");
        }
        HttpResponse<String> tasklist = WebappSession.login(port, APPROVER, PASSWORD, "tasklist")
                .post(WebappSession.ENGINE_API + "/task/" + rollout.taskId() + "/claim", "{\"userId\": \"" + VIEWER + "\"}");
        assertThat(tasklist.statusCode()).as(tasklist.body()).isEqualTo(403);
        assertThat(tasks.createTaskQuery().taskId(rollout.taskId()).singleResult().getAssignee()).as("nobody was made assignee").isNull();
        forbidden(as(APPROVER).postForEntity(task + "/delegate", json("{\"userId\": \"" + VIEWER + "\"}"), String.class));
        // whatever an admin assigned, an assignee who is no approver decides nothing
        for (String assignee : List.of(VIEWER, NOBODY)) {
            ResponseEntity<String> assigned = admin().postForEntity(task + "/assignee", json("{\"userId\": \"" + assignee + "\"}"), String.class);
            assertThat(assigned.getStatusCode()).as(assigned.getBody()).isEqualTo(HttpStatus.NO_CONTENT);
            for (String path : List.of("complete", "submit-form")) {
                ResponseEntity<String> decided = as(assignee).postForEntity(task + "/" + path, json(approve), String.class);
                assertThat(decided.getStatusCode()).as(assignee + " " + path + ": " + decided.getBody()).isEqualTo(HttpStatus.FORBIDDEN);
                assertThat(decided.getBody()).contains("user '" + assignee + "' may not decide task 'Approve rollout of webdemo'");
            }
            asUser(assignee, "viewers", () -> assertThatThrownBy(() -> tasks.complete(rollout.taskId(), Map.of("approved", true)))
                    .hasMessageContaining("may not decide task"));
        }
        ResponseEntity<String> delegated = admin().postForEntity(task + "/delegate", json("{\"userId\": \"" + VIEWER + "\"}"), String.class);
        assertThat(delegated.getStatusCode()).as(delegated.getBody()).isEqualTo(HttpStatus.NO_CONTENT);
        refused(as(VIEWER).postForEntity(task + "/resolve", json(approve), String.class), HttpStatus.FORBIDDEN,
                "user 'vera' may not decide task 'Approve rollout of webdemo'");
        assertNothingChanged(before);
        // handed back, the approver decides, and the report names the approver alone
        ResponseEntity<String> resolved = admin().postForEntity(task + "/resolve", json("{}"), String.class);
        assertThat(resolved.getStatusCode()).as(resolved.getBody()).isEqualTo(HttpStatus.NO_CONTENT);
        ResponseEntity<String> approved = as(APPROVER).postForEntity(task + "/complete", json(approve), String.class);
        assertThat(approved.getStatusCode()).as(approved.getBody()).isEqualTo(HttpStatus.NO_CONTENT);
        awaitCompleted(rollout.pid());
        JsonNode report = JSON.readTree(as(VIEWER).getForObject("/api/rollouts/" + rollout.pid(), String.class));
        assertThat(report.get("approvedBy")).containsExactly(JSON.getNodeFactory().textNode(APPROVER));
    }

    /**
     * Five wrong passwords for admin, one correct login as anyone, again and again: the correct login cleared the
     * client's count, and nothing was ever throttled. A correct login clears only that user's failures.
     */
    @Test
    void aCorrectLoginClearsNoOtherUsersFailures() {
        HttpHeaders client = new HttpHeaders();
        client.set("X-Forwarded-For", "203.0.113.32");
        List<Integer> guesses = new ArrayList<>();
        for (int round = 0; round < 3; round++) {
            for (int i = 0; i < 5; i++) {
                guesses.add(http.withBasicAuth("admin", "guess-" + round + "-" + i)
                        .exchange("/api/replica-sets", HttpMethod.GET, new HttpEntity<>(client), String.class).getStatusCode().value());
            }
            as(VIEWER).exchange("/api/replica-sets", HttpMethod.GET, new HttpEntity<>(client), String.class);
        }
        assertThat(guesses.subList(0, 6)).as("5 free failures and the sixth: " + guesses).containsOnly(401);
        assertThat(guesses.subList(6, 15)).as("the guesser waits, whoever logs in between: " + guesses).containsOnly(429);
    }

    /**
     * Viewers and operators commented and attached files on approvals, finished ones too, and the requester commented
     * on their own request to sway the approver. Now only approvers (and admins) comment on an open approval.
     */
    @Test
    void onlyApproversCommentOnAnOpenApproval() throws Exception {
        Waiting rollout = waitingRollout(REQUESTER);
        String task = "/engine-rest/task/" + rollout.taskId();
        String comment = "{\"message\": \"I checked it myself: approve it\"}";
        for (String attacker : List.of(VIEWER, OPERATOR, REQUESTER)) {
            refused(as(attacker).postForEntity(task + "/comment/create", json(comment), String.class), HttpStatus.FORBIDDEN,
                    "user '" + attacker + "' may not comment on task 'Approve rollout of webdemo'");
            refused(as(attacker).postForEntity(task + "/attachment/create", attachment(), String.class), HttpStatus.FORBIDDEN,
                    "user '" + attacker + "' may not attach to task 'Approve rollout of webdemo'");
        }
        assertThat(tasks.getTaskComments(rollout.taskId())).as("no comment was kept").isEmpty();
        assertThat(tasks.getTaskAttachments(rollout.taskId())).as("no attachment was kept").isEmpty();
        ResponseEntity<String> own = as(APPROVER).postForEntity(task + "/comment/create", json("{\"message\": \"checked the diff\"}"), String.class);
        assertThat(own.getStatusCode()).as("the approver comments: " + own.getBody()).isEqualTo(HttpStatus.OK);
        ResponseEntity<String> approved = as(APPROVER).postForEntity(task + "/complete",
                json("{\"variables\": {\"approved\": {\"value\": true}}}"), String.class);
        assertThat(approved.getStatusCode()).as(approved.getBody()).isEqualTo(HttpStatus.NO_CONTENT);
        for (String anyone : List.of(APPROVER, VIEWER, "admin")) {
            TestRestTemplate as = "admin".equals(anyone) ? admin() : as(anyone);
            ResponseEntity<String> late = as.postForEntity(task + "/comment/create", json(comment), String.class);
            assertThat(late.getStatusCode().is4xxClientError()).as(anyone + " on the finished task: " + late.getBody()).isTrue();
            assertThat(late.getBody()).contains("finished");
            ResponseEntity<String> lateFile = as.postForEntity(task + "/attachment/create", attachment(), String.class);
            assertThat(lateFile.getStatusCode().is4xxClientError()).as(anyone + " on the finished task: " + lateFile.getBody()).isTrue();
        }
        assertThat(history.createHistoricTaskInstanceQuery().taskId(rollout.taskId()).singleResult().getEndTime()).isNotNull();
        assertThat(tasks.getTaskComments(rollout.taskId())).extracting(c -> c.getUserId()).containsOnly(APPROVER);
        awaitCompleted(rollout.pid());
    }

    /**
     * {@code {"approveLeader": false, "onFailure": "ROLLBACK", "maxUnavailable": "100%"}} from an operator left the
     * leader's approval out, and the approval form showed neither the override nor what it removes. Now the form shows
     * each overridden field beside the fleet file's value, and one that weakens an approval is accepted only by the
     * approver's own explicit decision.
     */
    @Test
    void anOverrideIsShownAndOneThatRemovesAnApprovalNeedsTheApproversOwnDecision() throws Exception {
        new RolloutDriver(http, tasks, history, SET).awaitAllRunning(3);
        String compose = "services:\n  web:\n    image: nginxdemos/hello:0." + (imageTag++) + "\n";
        ResponseEntity<String> started = as(REQUESTER).postForEntity("/api/replica-sets/webdemo/rollouts", json(JSON.writeValueAsString(Map.of(
                "dockerCompose", compose, "updatePolicy", Map.of("approveLeader", false, "onFailure", "ROLLBACK", "maxUnavailable", "100%")))),
                String.class);
        assertThat(started.getStatusCode()).as(started.getBody()).isEqualTo(HttpStatus.CREATED);
        String pid = JSON.readTree(started.getBody()).get("processInstanceId").asText();
        Task task = new RolloutDriver(http, tasks, history, SET).awaitTask(pid, "UserTask_ApproveRollout");
        String form = as(APPROVER).getForObject("/engine-rest/task/" + task.getId() + "/deployed-form", String.class);
        assertThat(form).as("the approval form").contains("\"key\": \"policyOverrides\"").contains("\"key\": \"acceptOverrides\"");
        JsonNode shown = JSON.readTree(as(APPROVER).getForObject("/engine-rest/task/" + task.getId() + "/form-variables", String.class));
        String overrides = shown.path(RolloutVariables.POLICY_OVERRIDES).path("value").asText();
        assertThat(overrides).as("what the approver reads: " + shown)
                .contains("approveLeader: false (fleet file: true)")
                .contains("onFailure: ROLLBACK (fleet file: PAUSE)")
                .contains("maxUnavailable: 100% (fleet file: 1)")
                .contains("leader's approval");
        // approving the rollout alone does not accept an override that removes an approval
        refused(as(APPROVER).postForEntity("/engine-rest/task/" + task.getId() + "/complete",
                json("{\"variables\": {\"approved\": {\"value\": true}}}"), String.class),
                HttpStatus.BAD_REQUEST, "acceptOverrides");
        refused(as(APPROVER).postForEntity("/engine-rest/task/" + task.getId() + "/submit-form",
                json("{\"variables\": {\"approved\": {\"value\": \"true\"}, \"acceptOverrides\": {\"value\": \"false\"}}}"), String.class),
                HttpStatus.BAD_REQUEST, "acceptOverrides");
        assertThat(tasks.createTaskQuery().taskId(task.getId()).count()).as("the approval is still open").isEqualTo(1);
        ResponseEntity<String> approved = as(APPROVER).postForEntity("/engine-rest/task/" + task.getId() + "/submit-form",
                json("{\"variables\": {\"approved\": {\"value\": \"true\"}, \"acceptOverrides\": {\"value\": \"true\"}}}"), String.class);
        assertThat(approved.getStatusCode()).as(approved.getBody()).isEqualTo(HttpStatus.NO_CONTENT);
        awaitCompleted(pid);
    }

    /**
     * The simulator's admin controls believed a request with only {@code X-Real-IP}, and any {@code Host} (a DNS
     * rebinding page reaches them through the browser of someone on this machine). Tried with a raw socket, so that
     * the headers are exactly the attacker's.
     */
    @Test
    void theSimulatorsControlsRefuseProxyHeadersAndOtherHosts() throws Exception {
        String body = "{\"healthy\": true}";
        String path = "/simulator/_admin/cvms/webdemo-0/health";
        for (String extra : List.of("Host: 127.0.0.1:" + port + "\r\nX-Real-IP: 203.0.113.9",
                "Host: 127.0.0.1:" + port + "\r\nX-Forwarded-Host: evil.example",
                "Host: 127.0.0.1:" + port + "\r\nVia: 1.1 proxy",
                "Host: rebound.evil.example:" + port,
                "Host: 192.0.2.1")) {
            String answer = rawPost(path, extra, body);
            assertThat(answer).as(extra).startsWith("HTTP/1.1 403").contains("the simulator's admin controls answer only on this machine");
        }
        assertThat(rawPost(path, "Host: localhost:" + port, body)).as("this machine, directly").startsWith("HTTP/1.1 200");
        assertThat(rawPost(path, "Host: 127.0.0.1:" + port, body)).startsWith("HTTP/1.1 200");
    }

    /**
     * Every refused call logged an ERROR with a 105-line stack trace (14 KB for one request: any logged-in user could
     * flood the log), and some bad engine-rest input was a 500. Now a refusal is one line at INFO or WARN, and bad input
     * a 4xx that names the cause.
     */
    @Test
    void aRefusalIsOneLineAndBadEngineInputIsA4xx() throws Exception {
        Waiting rollout = waitingRollout(REQUESTER);
        ch.qos.logback.classic.Logger root = (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> logged = new ch.qos.logback.core.read.ListAppender<>();
        logged.start();
        root.addAppender(logged);
        try {
            refused(as(OPERATOR).postForEntity("/engine-rest/process-definition/key/rollout/start",
                    json("{\"variables\": {\"replicaSet\": {\"value\": \"webdemo\"}, \"rollbackOf\": {\"value\": \"x\"}}}"), String.class),
                    HttpStatus.BAD_REQUEST, "rollbackOf: not a start variable of rollout");
            forbidden(as(VIEWER).postForEntity("/engine-rest/task/" + rollout.taskId() + "/complete",
                    json("{\"variables\": {\"approved\": {\"value\": true}}}"), String.class));
            refused(as(APPROVER).postForEntity("/engine-rest/task/" + rollout.taskId() + "/complete",
                    json("{\"variables\": {\"approved\": {\"value\": true}, \"targetCompose\": {\"value\": \"x\"}}}"), String.class),
                    HttpStatus.BAD_REQUEST, "targetCompose: not a field of the form");
            // bad input: each a 4xx naming its cause (an admin's writes: nobody else writes variables)
            String file = "{\"value\": \"\\\"/etc/passwd\\\"\", \"type\": \"Object\", \"valueInfo\": {\"objectTypeName\": \"java.io.File\","
                    + " \"serializationDataFormat\": \"application/json\"}}";
            String serialized = "{\"value\": \"rO0ABXQABWhlbGxv\", \"type\": \"Object\", \"valueInfo\": {\"objectTypeName\": \"java.lang.String\","
                    + " \"serializationDataFormat\": \"application/x-java-serialized-object\"}}";
            String variable = "/engine-rest/process-instance/" + rollout.pid() + "/variables/";
            for (Map.Entry<String, String> bad : Map.of("java.io.File", file, "application/x-java-serialized-object", serialized).entrySet()) {
                ResponseEntity<String> written = admin().exchange(variable + "probe", HttpMethod.PUT, json(bad.getValue()), String.class);
                if (written.getStatusCode().is2xxSuccessful()) {
                    written = admin().getForEntity(variable + "probe", String.class);
                    admin().exchange(variable + "probe", HttpMethod.DELETE, null, String.class);
                }
                assertThat(written.getStatusCode().is4xxClientError()).as(bad.getKey() + ": " + written.getBody()).isTrue();
                assertThat(written.getBody()).as(bad.getKey()).containsIgnoringCase(bad.getKey());
            }
            ResponseEntity<String> notMultipart = as(APPROVER).postForEntity("/engine-rest/task/" + rollout.taskId() + "/attachment/create",
                    json("{\"attachment-name\": \"x\", \"url\": \"http://example.org\"}"), String.class);
            assertThat(notMultipart.getStatusCode().is4xxClientError()).as(notMultipart.getBody()).isTrue();
            assertThat(notMultipart.getBody()).contains("multipart/form-data");
        } finally {
            root.detachAppender(logged);
        }
        List<ch.qos.logback.classic.spi.ILoggingEvent> events = new ArrayList<>(logged.list);
        assertThat(events).as("no ERROR").noneMatch(e -> e.getLevel().isGreaterOrEqual(ch.qos.logback.classic.Level.ERROR));
        assertThat(events).as("no stack trace").noneMatch(e -> e.getThrowableProxy() != null);
        assertThat(events).filteredOn(e -> e.getFormattedMessage().contains("rollbackOf: not a start variable of rollout"))
                .as("the refusal, logged once").hasSize(1)
                .allMatch(e -> e.getLevel() == ch.qos.logback.classic.Level.INFO || e.getLevel() == ch.qos.logback.classic.Level.WARN);
        assertThat(events).filteredOn(e -> e.getFormattedMessage().contains("targetCompose: not a field of the form")).hasSize(1);
    }

    private HttpEntity<org.springframework.util.MultiValueMap<String, Object>> attachment() {
        org.springframework.util.LinkedMultiValueMap<String, Object> parts = new org.springframework.util.LinkedMultiValueMap<>();
        parts.add("attachment-name", "evidence.txt");
        parts.add("attachment-description", "read this first");
        parts.add("attachment-type", "text/plain");
        parts.add("url", "https://evil.example/approve-it");
        HttpHeaders headers = new HttpHeaders();
        headers.setContentType(MediaType.MULTIPART_FORM_DATA);
        return new HttpEntity<>(parts, headers);
    }

    /** A POST written byte by byte to this server: the status line and the body of the answer. */
    private String rawPost(String path, String headers, String body) throws Exception {
        try (java.net.Socket socket = new java.net.Socket("127.0.0.1", port)) {
            socket.setSoTimeout(10_000);
            byte[] content = body.getBytes(java.nio.charset.StandardCharsets.UTF_8);
            String request = "POST " + path + " HTTP/1.1\r\n" + headers + "\r\nContent-Type: application/json\r\nContent-Length: "
                    + content.length + "\r\nConnection: close\r\n\r\n" + body;
            socket.getOutputStream().write(request.getBytes(java.nio.charset.StandardCharsets.UTF_8));
            socket.getOutputStream().flush();
            return new String(socket.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
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
