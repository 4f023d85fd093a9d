package com.statefulcvm.web.api;

import com.statefulcvm.web.RolloutDriver;
import com.statefulcvm.web.E2eSupport;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.statefulcvm.delegates.procedure.HealVariables;
import com.statefulcvm.delegates.procedure.RolloutVariables;
import com.statefulcvm.fleet.admission.Fence;
import com.statefulcvm.fleet.admission.FenceRegistry;
import com.statefulcvm.fleet.FencePolicy;
import com.statefulcvm.web.security.Roles;
import org.camunda.bpm.engine.AuthorizationService;
import org.camunda.bpm.engine.HistoryService;
import org.camunda.bpm.engine.IdentityService;
import org.camunda.bpm.engine.RuntimeService;
import org.camunda.bpm.engine.TaskService;
import org.camunda.bpm.engine.authorization.Authorization;
import org.camunda.bpm.engine.authorization.Permission;
import org.camunda.bpm.engine.authorization.Resources;
import org.camunda.bpm.engine.history.HistoricProcessInstance;
import org.camunda.bpm.engine.history.HistoricVariableInstance;
import org.camunda.bpm.engine.identity.User;
import org.camunda.bpm.engine.impl.util.ResourceTypeUtil;
import org.camunda.bpm.engine.task.Task;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.client.TestRestTemplate;
import org.springframework.http.HttpEntity;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The roles, each on every path it has: a viewer ({@code viewers}) reads the fleet, the procedures, their history and
 * their tasks and changes nothing; an operator ({@code operators}) starts procedures (our API, a Tasklist start form),
 * pauses, resumes and aborts rollouts, heals and readmits instances, and decides no approval; an approver
 * ({@code approvers}) decides approvals and starts nothing; an authenticated user in no group reads the fleet only; an
 * admin may do everything; nobody unauthenticated gets anything. Approvals record who decided.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.DEFINED_PORT)
@ActiveProfiles("e2e")
class AccessControlTest {

    private static final String SET = "webdemo";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String VIEWER = "vera";
    private static final String OPERATOR = "olivia";
    private static final String APPROVER = "april";
    private static final String OUTSIDER = "audrey";
    private static final String PASSWORD = "s3cret-enough";

    @DynamicPropertySource
    static void port(DynamicPropertyRegistry registry) {
        E2eSupport.onFreePortWithDatabase(registry, "access-control-test");
    }

    @Autowired
    TestRestTemplate http;
    @Autowired
    IdentityService identity;
    @Autowired
    RuntimeService runtime;
    @Autowired
    TaskService tasks;
    @Autowired
    HistoryService history;
    @Autowired
    AuthorizationService authorizations;
    @Autowired
    FenceRegistry fences;

    @BeforeEach
    void users() {
        user(VIEWER, Roles.VIEWERS);
        user(OPERATOR, Roles.OPERATORS);
        user(APPROVER, Roles.APPROVERS);
        user(OUTSIDER, null);
    }

    @AfterEach
    void deleteRunning() {
        E2eSupport.deleteRunning(runtime, RolloutVariables.PROCESS_KEY);
        E2eSupport.deleteRunning(runtime, HealVariables.HEAL_PROCESS);
        fences.lift(SET, 1);
    }

    @Test
    void nobodyUnauthenticatedGetsAnything() {
        for (String path : List.of("/api/replica-sets", "/api/replica-sets/webdemo/revisions", "/api/rollouts/x",
                "/engine-rest/task", "/engine-rest/process-definition", "/engine-rest/history/process-instance")) {
            assertThat(http.getForEntity(path, String.class).getStatusCode()).as(path).isEqualTo(HttpStatus.UNAUTHORIZED);
        }
        assertThat(http.postForEntity("/api/replica-sets/webdemo/rollouts", json("{\"dockerCompose\": \"a: 1\"}"), String.class)
                .getStatusCode()).isEqualTo(HttpStatus.UNAUTHORIZED);
        user("mallory", Roles.OPERATORS);
        assertThat(http.withBasicAuth("mallory", "wrong").getForEntity("/api/replica-sets", String.class).getStatusCode())
                .isEqualTo(HttpStatus.UNAUTHORIZED);
        assertThat(runtime.createProcessInstanceQuery().processDefinitionKey(RolloutVariables.PROCESS_KEY).count()).isZero();
    }

    /**
     * One rollout through every role: the operator starts it, the viewer and the outsider look and are refused, the
     * approver approves, the operator pauses, resumes and aborts it without any right to modify the instance.
     */
    @Test
    void eachRoleDoesItsPartOfARolloutAndNothingMore() throws Exception {
        new RolloutDriver(http, tasks, history, SET).awaitAllRunning(3);
        TestRestTemplate operator = as(OPERATOR);
        TestRestTemplate viewer = as(VIEWER);
        TestRestTemplate approver = as(APPROVER);
        TestRestTemplate outsider = as(OUTSIDER);
        // a deadline no loaded test machine misses: the point here is who may do what, not the halt
        String body = JSON.writeValueAsString(Map.of("dockerCompose", "services:\n  web:\n    image: nginxdemos/hello:0.7\n",
                "updatePolicy", Map.of("progressDeadlineSeconds", 300)));

        // who may not start it: refused with the reason, and nothing starts
        for (TestRestTemplate refused : List.of(viewer, approver, outsider)) {
            refused(refused.postForEntity("/api/replica-sets/webdemo/rollouts", json(body), String.class), HttpStatus.FORBIDDEN,
                    "may not start rollouts: that needs CREATE_INSTANCE on the process definition 'rollout', which the role 'operators' has");
            refused(refused.postForEntity("/api/replica-sets/webdemo/rollbacks", json("{\"revision\": 1}"), String.class),
                    HttpStatus.FORBIDDEN, "may not start rollbacks");
            assertThat(refused.postForEntity("/engine-rest/process-definition/key/rollout/submit-form",
                    json("{\"variables\": {\"replicaSet\": {\"value\": \"webdemo\"}, \"dockerCompose\": {\"value\": \"a: 1\"}}}"),
                    String.class).getStatusCode()).isIn(HttpStatus.FORBIDDEN, HttpStatus.NOT_FOUND);
        }
        assertThat(runtime.createProcessInstanceQuery().processDefinitionKey(RolloutVariables.PROCESS_KEY).count()).isZero();
        // reading the fleet and previewing a plan change nothing: any authenticated user may
        for (TestRestTemplate anyone : List.of(viewer, outsider)) {
            assertThat(anyone.getForEntity("/api/replica-sets/webdemo", String.class).getStatusCode()).isEqualTo(HttpStatus.OK);
            assertThat(anyone.postForEntity("/api/replica-sets/webdemo/rollouts/plan", json(body), String.class).getStatusCode())
                    .isEqualTo(HttpStatus.OK);
        }

        ResponseEntity<String> started = operator.postForEntity("/api/replica-sets/webdemo/rollouts", json(body), String.class);
        assertThat(started.getStatusCode()).as(started.getBody()).isEqualTo(HttpStatus.CREATED);
        String pid = JSON.readTree(started.getBody()).get("processInstanceId").asText();
        assertThat(runtime.getVariable(pid, RolloutVariables.REQUESTED_BY)).isEqualTo(OPERATOR);
        assertThat(history.createHistoricProcessInstanceQuery().processInstanceId(pid).singleResult().getStartUserId()).isEqualTo(OPERATOR);
        Task approval = new RolloutDriver(http, tasks, history, SET).awaitTask(pid, "UserTask_ApproveRollout");

        // the viewer sees the rollout, its report and its approval with the form, and may decide and control nothing
        assertThat(JSON.readTree(viewer.getForEntity("/engine-rest/task?processInstanceId=" + pid + "&maxResults=10", String.class).getBody())).hasSize(1);
        assertThat(viewer.getForEntity("/engine-rest/task/" + approval.getId() + "/form-variables", String.class).getStatusCode()).isEqualTo(HttpStatus.OK);
        assertThat(viewer.getForEntity("/engine-rest/task/" + approval.getId() + "/deployed-form", String.class).getStatusCode()).isEqualTo(HttpStatus.OK);
        assertThat(JSON.readTree(viewer.getForEntity("/api/rollouts/" + pid, String.class).getBody()).get("requestedBy").asText()).isEqualTo(OPERATOR);
        assertThat(JSON.readTree(viewer.getForEntity("/api/replica-sets/webdemo", String.class).getBody())
                .get("rollout").get("processInstanceId").asText()).isEqualTo(pid);
        for (TestRestTemplate notApprover : List.of(viewer, operator, outsider)) {
            refused(notApprover.postForEntity("/engine-rest/task/" + approval.getId() + "/complete", approve(true), String.class),
                    HttpStatus.FORBIDDEN, "TASK_WORK");
            refused(notApprover.postForEntity("/engine-rest/task/" + approval.getId() + "/submit-form", approve(true), String.class),
                    HttpStatus.FORBIDDEN, "TASK_WORK");
        }
        for (TestRestTemplate notOperator : List.of(viewer, approver, outsider)) {
            for (String action : List.of("pause", "resume", "abort")) {
                refused(notOperator.postForEntity("/api/rollouts/" + pid + "/" + action, json(""), String.class),
                        HttpStatus.FORBIDDEN, "may not " + action + " rollouts: that needs the role 'operators'");
            }
        }
        // the outsider may not even read the report or see the task
        refused(outsider.getForEntity("/api/rollouts/" + pid, String.class), HttpStatus.FORBIDDEN, "may not read rollouts");
        refused(outsider.getForEntity("/api/procedures/" + pid, String.class), HttpStatus.FORBIDDEN, "may not read rollouts");
        assertThat(viewer.getForEntity("/api/procedures/" + pid, String.class).getStatusCode()).isEqualTo(HttpStatus.OK);
        assertThat(JSON.readTree(outsider.getForEntity("/engine-rest/task/count", String.class).getBody()).get("count").asInt()).isZero();
        assertThat(JSON.readTree(outsider.getForEntity("/api/replica-sets/webdemo", String.class).getBody()).has("rollout")).isFalse();
        // deleting is the admin's, for every role
        for (TestRestTemplate role : List.of(viewer, operator, approver)) {
            assertThat(role.exchange("/engine-rest/process-instance/" + pid, HttpMethod.DELETE, null, String.class).getStatusCode())
                    .isEqualTo(HttpStatus.FORBIDDEN);
        }
        assertThat(tasks.createTaskQuery().taskId(approval.getId()).count()).as("the approval is still open").isEqualTo(1);
        // the operator may control it: nothing to pause yet (409, not 403)
        refused(operator.postForEntity("/api/rollouts/" + pid + "/pause", json(""), String.class), HttpStatus.CONFLICT, "cannot be paused now");

        // the approver approves
        ResponseEntity<String> done = approver.postForEntity("/engine-rest/task/" + approval.getId() + "/complete", approve(true), String.class);
        assertThat(done.getStatusCode()).as(done.getBody()).isEqualTo(HttpStatus.NO_CONTENT);

        // the operator pauses, resumes and aborts it: messages the application sends once it has checked the role
        ResponseEntity<String> pause = await().atMost(Duration.ofSeconds(20))
                .until(() -> operator.postForEntity("/api/rollouts/" + pid + "/pause", json(""), String.class),
                        r -> r.getStatusCode() == HttpStatus.ACCEPTED || r.getStatusCode() == HttpStatus.NOT_FOUND);
        assertThat(pause.getStatusCode()).as(pause.getBody()).isEqualTo(HttpStatus.ACCEPTED);
        await().atMost(Duration.ofSeconds(90)).until(() -> JSON.readTree(operator.getForEntity("/api/rollouts/" + pid, String.class).getBody())
                .get("paused").asBoolean());
        ResponseEntity<String> resume = operator.postForEntity("/api/rollouts/" + pid + "/resume", json(""), String.class);
        assertThat(resume.getStatusCode()).as(resume.getBody()).isEqualTo(HttpStatus.ACCEPTED);
        ResponseEntity<String> abort = operator.postForEntity("/api/rollouts/" + pid + "/abort", json(""), String.class);
        assertThat(abort.getStatusCode()).as(abort.getBody()).isIn(HttpStatus.ACCEPTED, HttpStatus.CONFLICT);
        awaitEnded(pid);

        JsonNode report = JSON.readTree(viewer.getForEntity("/api/rollouts/" + pid, String.class).getBody());
        assertThat(report.get("requestedBy").asText()).isEqualTo(OPERATOR);
        JsonNode decided = report.get("approvals").get(0);
        assertThat(decided.get("decision").asText()).isEqualTo("approved");
        assertThat(decided.get("by").asText()).isEqualTo(APPROVER);
        assertThat(localToTask(approval.getId(), RolloutVariables.APPROVED_BY)).isEqualTo(APPROVER);
        assertThat(localToTask(approval.getId(), RolloutVariables.APPROVED_AT).toString()).matches("\\d{4}-\\d\\d-\\d\\dT.*Z");
        assertThat((List<?>) processVariable(pid, RolloutVariables.DECISIONS)).singleElement()
                .satisfies(d -> assertThat((Map<Object, Object>) d).containsEntry("by", APPROVER).containsEntry("decision", "approved")
                        .containsEntry("taskDefinitionKey", "UserTask_ApproveRollout").containsKey("at").containsKey("task"));
    }

    /** An operator's Tasklist start form starts the same rollout; no other role may submit it. */
    @Test
    void onlyAnOperatorStartsFromTasklist() throws Exception {
        String form = "{\"variables\": {\"replicaSet\": {\"value\": \"webdemo\"}, "
                + "\"dockerCompose\": {\"value\": \"services:\\n  web:\\n    image: nginxdemos/hello:0.9\\n\"}}}";
        for (String other : List.of(VIEWER, APPROVER)) {
            assertThat(as(other).postForEntity("/engine-rest/process-definition/key/rollout/submit-form", json(form), String.class)
                    .getStatusCode()).as(other).isEqualTo(HttpStatus.FORBIDDEN);
        }
        ResponseEntity<String> started = as(OPERATOR).postForEntity("/engine-rest/process-definition/key/rollout/submit-form", json(form), String.class);
        assertThat(started.getStatusCode()).as(started.getBody()).isEqualTo(HttpStatus.OK);
        String pid = JSON.readTree(started.getBody()).get("id").asText();
        assertThat(runtime.getVariable(pid, RolloutVariables.REQUESTED_BY)).isEqualTo(OPERATOR);
    }

    /** A heal and a readmit on request: an operator's, refused to a viewer, recorded with who asked. */
    @Test
    void anOperatorHealsAndReadmits() throws Exception {
        new RolloutDriver(http, tasks, history, SET).awaitAllRunning(3);
        refused(as(VIEWER).postForEntity("/api/replica-sets/webdemo/instances/0/heal", json("{}"), String.class),
                HttpStatus.FORBIDDEN, "user 'vera' may not heal instances");
        ResponseEntity<String> heal = as(OPERATOR).postForEntity("/api/replica-sets/webdemo/instances/0/heal",
                json("{\"reason\": \"looks stuck\"}"), String.class);
        assertThat(heal.getStatusCode()).as(heal.getBody()).isEqualTo(HttpStatus.CREATED);
        String healId = JSON.readTree(heal.getBody()).get("processInstanceId").asText();
        assertThat(history.createHistoricProcessInstanceQuery().processInstanceId(healId).singleResult().getStartUserId()).isEqualTo(OPERATOR);

        fences.save(new Fence(SET, 1, "test-instance", FencePolicy.STOP, "QUOTE_INVALID: test", Instant.now(), "test"));
        refused(as(OPERATOR).postForEntity("/api/replica-sets/webdemo/instances/1/heal", json("{}"), String.class),
                HttpStatus.CONFLICT, "readmit it");
        ResponseEntity<String> readmit = as(OPERATOR).postForEntity("/api/replica-sets/webdemo/instances/1/readmit", json("{}"), String.class);
        assertThat(readmit.getStatusCode()).as(readmit.getBody()).isEqualTo(HttpStatus.CREATED);
        String readmitId = JSON.readTree(readmit.getBody()).get("processInstanceId").asText();
        assertThat(runtime.createProcessInstanceQuery().processInstanceId(readmitId).count()
                + history.createHistoricProcessInstanceQuery().processInstanceId(readmitId).count()).isPositive();
    }

    @Test
    void theAdminStillMayDoEverythingAndIsRecordedAsTheApprover() throws Exception {
        RolloutDriver driver = new RolloutDriver(http, tasks, history, SET);
        driver.awaitAllRunning(3);
        String pid = driver.startRollout("services:\n  web:\n    image: nginxdemos/hello:0.8\n");
        Task approval = driver.awaitTask(pid, "UserTask_ApproveRollout");
        ResponseEntity<String> rejected = driver.completeTask(approval.getId(), Map.of("approved", Map.of("value", false, "type", "Boolean")));
        assertThat(rejected.getStatusCode()).isEqualTo(HttpStatus.NO_CONTENT);
        awaitEnded(pid);
        assertThat(history.createHistoricProcessInstanceQuery().processInstanceId(pid).singleResult().getEndActivityId())
                .isEqualTo("EndEvent_RolloutRejected");

        JsonNode report = JSON.readTree(driver.admin().getForEntity("/api/rollouts/" + pid, String.class).getBody());
        JsonNode decided = report.get("approvals").get(0);
        assertThat(decided.get("decision").asText()).isEqualTo("rejected");
        assertThat(decided.get("by").asText()).isEqualTo("admin");
        assertThat(localToTask(approval.getId(), RolloutVariables.APPROVED_BY)).isEqualTo("admin");

        // the finished rollout's page: the diagram it ran on, what it passed, its timeline and its report
        JsonNode page = JSON.readTree(driver.admin().getForEntity("/api/procedures/" + pid, String.class).getBody());
        assertThat(page.get("kind").asText()).isEqualTo("rollout");
        assertThat(page.get("state").asText()).isEqualTo("COMPLETED");
        assertThat(page.get("processDefinitionVersion").asInt()).isPositive();
        assertThat(page.get("diagram").asText()).contains("id=\"EndEvent_RolloutRejected\"").contains("bpmndi:BPMNDiagram");
        assertThat(page.get("visits").findValuesAsText("activityId")).contains("UserTask_ApproveRollout", "EndEvent_RolloutRejected");
        JsonNode asked = java.util.stream.StreamSupport.stream(page.get("timeline").spliterator(), false)
                .filter(step -> step.get("activityId").asText().equals("UserTask_ApproveRollout")).findFirst().orElseThrow();
        assertThat(asked.get("endedAt").isNull()).isFalse();
        assertThat(page.get("report").get("approvals").get(0).get("by").asText()).isEqualTo("admin");
        refused(driver.admin().getForEntity("/api/procedures/no-such-id", String.class), HttpStatus.NOT_FOUND,
                "unknown procedure 'no-such-id': the engine's history has no process instance of that id");
    }

    /** Exactly the documented grants (docs/configuration.md), no more: one stray UPDATE_INSTANCE would open variable writes. */
    @Test
    void eachRoleGroupHoldsExactlyItsGrants() {
        int definition = Resources.PROCESS_DEFINITION.resourceType();
        List<String> read = List.of("READ", "READ_HISTORY", "READ_INSTANCE", "READ_TASK");
        for (String group : List.of(Roles.VIEWERS, Roles.OPERATORS, Roles.APPROVERS)) {
            assertThat(identity.createGroupQuery().groupId(group).count()).isEqualTo(1);
            Map<String, List<String>> grants = grants(group);
            for (String procedure : List.of("rollout", "heal", "failover", "scale", "lights-out-recovery", "run-hook",
                    "attest-instance", "admit-instance", "drain-generic", "rejoin-etcd")) {
                List<String> expected = new java.util.ArrayList<>(read);
                if (group.equals(Roles.OPERATORS) && List.of("rollout", "heal", "failover", "scale", "lights-out-recovery").contains(procedure)) {
                    expected.add("CREATE_INSTANCE");
                }
                if (group.equals(Roles.APPROVERS)) {
                    expected.add("TASK_WORK");
                }
                assertThat(grants.get(definition + ":" + procedure)).as(group + " on " + procedure)
                        .containsExactlyInAnyOrderElementsOf(expected);
            }
            assertThat(grants.get(Resources.APPLICATION.resourceType() + ":tasklist")).containsExactly("ACCESS");
            assertThat(grants.get(Resources.APPLICATION.resourceType() + ":cockpit")).containsExactly("ACCESS");
            assertThat(grants.keySet()).anyMatch(k -> k.startsWith(Resources.FILTER.resourceType() + ":"));
            assertThat(grants.keySet()).as(group + ": no Admin webapp, users, groups, authorizations, deployments")
                    .noneMatch(k -> k.endsWith(":admin"))
                    .noneMatch(k -> k.startsWith(Resources.USER.resourceType() + ":")
                            || k.startsWith(Resources.GROUP.resourceType() + ":") && !k.endsWith(":" + group)
                            || k.startsWith(Resources.AUTHORIZATION.resourceType() + ":") || k.startsWith(Resources.DEPLOYMENT.resourceType() + ":"));
            // Camunda's own default: the members of a group read the group
            assertThat(grants.get(Resources.GROUP.resourceType() + ":" + group)).containsExactly("READ");
            assertThat(grants.get(Resources.PROCESS_INSTANCE.resourceType() + ":*"))
                    .isEqualTo(group.equals(Roles.OPERATORS) ? List.of("CREATE") : null);
        }
    }

    private Map<String, List<String>> grants(String group) {
        Map<String, List<String>> grants = new TreeMap<>();
        for (Authorization a : authorizations.createAuthorizationQuery().groupIdIn(group).list()) {
            assertThat(a.getAuthorizationType()).isEqualTo(Authorization.AUTH_TYPE_GRANT);
            Permission[] all = ResourceTypeUtil.getPermissionsByResourceType(a.getResourceType());
            grants.put(a.getResourceType() + ":" + a.getResourceId(),
                    Arrays.stream(a.getPermissions(all)).map(Permission::getName).filter(n -> !"NONE".equals(n)).sorted().toList());
        }
        return grants;
    }

    /** Longer than RolloutDriver's: this machine is shared with other test runs. */
    private void awaitEnded(String pid) {
        await().atMost(Duration.ofMinutes(4)).until(() -> history.createHistoricProcessInstanceQuery()
                .processInstanceId(pid).finished().singleResult(), p -> p != null);
    }

    private TestRestTemplate as(String user) {
        return http.withBasicAuth(user, PASSWORD);
    }

    private Object localToTask(String taskId, String name) {
        HistoricVariableInstance v = history.createHistoricVariableInstanceQuery().taskIdIn(taskId).variableName(name).singleResult();
        assertThat(v).as(name + " of task " + taskId).isNotNull();
        return v.getValue();
    }

    private Object processVariable(String pid, String name) {
        return history.createHistoricVariableInstanceQuery().processInstanceId(pid).variableName(name).list().stream()
                .filter(v -> pid.equals(v.getExecutionId()) && v.getTaskId() == null)
                .findFirst().orElseThrow(() -> new AssertionError("no process variable " + name)).getValue();
    }

    private void user(String id, String group) {
        if (identity.createUserQuery().userId(id).count() == 0) {
            User user = identity.newUser(id);
            user.setPassword(PASSWORD);
            user.setFirstName(id);
            identity.saveUser(user);
            if (group != null) {
                identity.createMembership(id, group);
            }
        }
    }

    private static HttpEntity<String> approve(boolean approved) {
        return json("{\"variables\": {\"approved\": {\"value\": " + approved + ", \"type\": \"Boolean\"}}}");
    }

    private static void refused(ResponseEntity<String> response, HttpStatus status, String message) {
        assertThat(response.getStatusCode()).as(response.getBody()).isEqualTo(status);
        assertThat(response.getBody()).contains(message);
    }

    private static HttpEntity<String> json(String body) {
        HttpHeaders headers = new HttpHeaders();
        headers.setContentType(MediaType.APPLICATION_JSON);
        return new HttpEntity<>(body, headers);
    }
}
