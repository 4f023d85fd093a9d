package com.statefulcvm.web.api;

import com.statefulcvm.web.E2eSupport;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.statefulcvm.delegates.procedure.RolloutVariables;
import org.camunda.bpm.engine.HistoryService;
import org.camunda.bpm.engine.RuntimeService;
import org.camunda.bpm.engine.TaskService;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The rollout API around the procedure: input checks of every new endpoint (each refusal names the field and starts
 * nothing), revisions from the fleet file, the plan preview, the set status, the control endpoints and the rollout
 * report. The policy's behaviour end to end is tested elsewhere.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.DEFINED_PORT)
@ActiveProfiles("e2e")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RolloutApiTest {

    private static final String SET = "webdemo";
    private static final String FLEET_COMPOSE = "services:\n  web:\n    image: nginxdemos/hello:0.3\n";
    private static final String NEW_COMPOSE = "services:\n  web:\n    image: nginxdemos/hello:0.4\n";
    private static final ObjectMapper JSON = new ObjectMapper();

    @DynamicPropertySource
    static void port(DynamicPropertyRegistry registry) {
        E2eSupport.onFreePortWithDatabase(registry, "rollout-api-test");
    }

    @Autowired
    TestRestTemplate http;
    @Autowired
    RuntimeService runtime;
    @Autowired
    TaskService tasks;
    @Autowired
    HistoryService history;

    @AfterEach
    void deleteRunningRollouts() {
        E2eSupport.deleteRunning(runtime, RolloutVariables.PROCESS_KEY);
    }

    @Test
    @Order(1)
    void badRequestsToTheNewEndpointsNameTheFieldAndStartNothing() {
        long before = runtime.createProcessInstanceQuery().count();
        String compose = "\"dockerCompose\": \"services: {a: {image: x}}\"";

        // the per-rollout policy override, validated like the fleet file before anything starts
        refused(post("/api/replica-sets/webdemo/rollouts", "{" + compose + ", \"updatePolicy\": {\"maxSurge\": \"lots\"}}"),
                HttpStatus.BAD_REQUEST, "updatePolicy.maxSurge");
        refused(post("/api/replica-sets/webdemo/rollouts", "{" + compose + ", \"updatePolicy\": {\"partiton\": 1}}"),
                HttpStatus.BAD_REQUEST, "updatePolicy.partiton");
        refused(post("/api/replica-sets/webdemo/rollouts", "{" + compose + ", \"updatePolicy\": {\"minReadySeconds\": -1, \"order\": \"random\"}}"),
                HttpStatus.BAD_REQUEST, "updatePolicy.order");
        refused(post("/api/replica-sets/webdemo/rollouts", "{" + compose + ", \"updatePolicy\": 3}"),
                HttpStatus.BAD_REQUEST, "updatePolicy: must be a JSON object");
        refused(post("/api/replica-sets/webdemo/rollouts", "{" + compose + ", \"updatPolicy\": {}}"),
                HttpStatus.BAD_REQUEST, "unknown field: updatPolicy");
        refused(post("/api/replica-sets/webdemo/rollouts/plan", "{" + compose + ", \"updatePolicy\": {\"maxUnavailable\": \"x%\"}}"),
                HttpStatus.BAD_REQUEST, "updatePolicy.maxUnavailable");
        refused(post("/api/replica-sets/webdemo/rollouts/plan", "{}"), HttpStatus.BAD_REQUEST, "dockerCompose: is required");
        refused(post("/api/replica-sets/nope/rollouts/plan", "{" + compose + "}"), HttpStatus.NOT_FOUND, "unknown replica set 'nope'");

        // one instance
        refused(post("/api/replica-sets/webdemo/instances/3/rollout", "{}"), HttpStatus.BAD_REQUEST, "ordinal: must be between 0 and 2");
        refused(post("/api/replica-sets/webdemo/instances/-1/rollout", "{}"), HttpStatus.BAD_REQUEST, "ordinal:");
        refused(post("/api/replica-sets/webdemo/instances/two/rollout", "{}"), HttpStatus.BAD_REQUEST, "ordinal: must be a number");
        refused(post("/api/replica-sets/nope/instances/0/rollout", "{}"), HttpStatus.NOT_FOUND, "unknown replica set 'nope'");
        refused(post("/api/replica-sets/webdemo/instances/0/rollout", "{\"dockerCompose\": 1}"), HttpStatus.BAD_REQUEST, "dockerCompose: must be a string");
        refused(post("/api/replica-sets/webdemo/instances/0/rollout", "{\"updatePolicy\": {\"maxSurge\": -1}}"),
                HttpStatus.BAD_REQUEST, "updatePolicy.maxSurge");
        refused(post("/api/replica-sets/webdemo/instances/0/rollout", "{\"ordinal\": 0}"), HttpStatus.BAD_REQUEST, "unknown field: ordinal");

        // revisions and rollbacks
        refused(post("/api/replica-sets/webdemo/rollbacks", "{\"revision\": 99}"), HttpStatus.BAD_REQUEST, "revision: replica set 'webdemo' has no revision 99");
        refused(post("/api/replica-sets/webdemo/rollbacks", "{\"revision\": \"one\"}"), HttpStatus.BAD_REQUEST, "revision: must be a revision number");
        refused(post("/api/replica-sets/webdemo/rollbacks", "{}"), HttpStatus.BAD_REQUEST, "revision: is required");
        refused(post("/api/replica-sets/webdemo/rollbacks", "{\"revision\": 1, \"updatePolicy\": {\"onFailure\": \"panic\"}}"),
                HttpStatus.BAD_REQUEST, "updatePolicy.onFailure");
        refused(post("/api/replica-sets/nope/rollbacks", "{\"revision\": 1}"), HttpStatus.NOT_FOUND, "unknown replica set 'nope'");
        refused(get("/api/replica-sets/webdemo/revisions/99"), HttpStatus.NOT_FOUND, "has no revision 99");
        refused(get("/api/replica-sets/webdemo/revisions/latest"), HttpStatus.BAD_REQUEST, "number: must be a revision number");
        refused(get("/api/replica-sets/nope/revisions"), HttpStatus.NOT_FOUND, "unknown replica set 'nope'");

        // control of a rollout that does not exist
        for (String action : List.of("pause", "resume", "abort")) {
            refused(post("/api/rollouts/no-such-id/" + action, ""), HttpStatus.NOT_FOUND, "unknown rollout 'no-such-id'");
        }
        refused(get("/api/rollouts/no-such-id"), HttpStatus.NOT_FOUND, "unknown rollout 'no-such-id'");

        // and all of it behind basic auth
        assertThat(http.postForEntity("/api/rollouts/no-such-id/pause", json(""), String.class).getStatusCode()).isEqualTo(HttpStatus.UNAUTHORIZED);
        assertThat(http.getForEntity("/api/replica-sets/webdemo/revisions", String.class).getStatusCode()).isEqualTo(HttpStatus.UNAUTHORIZED);

        assertThat(runtime.createProcessInstanceQuery().count()).as("nothing started").isEqualTo(before);
    }

    @Test
    @Order(2) // later tests record revisions and move the update revision
    void theFleetFileIsRevisionOneAndTheSetShowsRevisionsReadinessAndConditions() throws Exception {
        awaitAllRunning();
        JsonNode revisions = ok(get("/api/replica-sets/webdemo/revisions"));
        assertThat(revisions).hasSize(1);
        JsonNode first = revisions.get(0);
        assertThat(first.get("number").asInt()).isEqualTo(1);
        assertThat(first.get("createdBy").asText()).isEqualTo("fleet file");
        assertThat(first.get("reason").asText()).isEqualTo("initial revision from the fleet file");
        assertThat(first.get("current").asBoolean()).isTrue();
        assertThat(first.get("update").asBoolean()).isTrue();
        assertThat(first.get("digest").asText()).hasSize(64);
        assertThat(first.has("dockerCompose")).as("no compose text in the list").isFalse();

        JsonNode one = ok(get("/api/replica-sets/webdemo/revisions/1"));
        assertThat(one.get("dockerCompose").asText()).isEqualTo(FLEET_COMPOSE);

        JsonNode set = ok(get("/api/replica-sets/webdemo"));
        assertThat(set.get("currentRevision").asInt()).isEqualTo(1);
        assertThat(set.get("updateRevision").asInt()).isEqualTo(1);
        assertThat(set.get("updatedReplicas").asInt()).as("every instance runs the fleet file's compose").isEqualTo(3);
        assertThat(set.has("rollout")).isFalse();
        for (JsonNode instance : set.get("instances")) {
            JsonNode running = condition(instance, "Running");
            assertThat(running.get("status").asBoolean()).isTrue();
            assertThat(running.get("reason").asText()).isEqualTo("running");
            assertThat(running.get("lastTransitionTime").asText()).isNotBlank();
        }
        // once learnt from an instance, the revision keeps Phala's compose hash
        String hash = set.get("instances").get(0).get("composeHash").asText();
        assertThat(ok(get("/api/replica-sets/webdemo/revisions/1")).get("composeHash").asText()).isEqualTo(hash);

        JsonNode list = ok(get("/api/replica-sets"));
        JsonNode listed = null;
        for (JsonNode s : list) {
            if (SET.equals(s.get("name").asText())) {
                listed = s;
            }
        }
        assertThat(listed).isNotNull();
        assertThat(listed.get("currentRevision").asInt()).isEqualTo(1);
        assertThat(listed.get("updatedReplicas").asInt()).isEqualTo(3);
    }

    @Test
    @Order(3)
    void thePlanPreviewListsTheActionsInOrderAndStartsNothing() throws Exception {
        awaitAllRunning();
        long before = runtime.createProcessInstanceQuery().count();
        int revisionsBefore = ok(get("/api/replica-sets/webdemo/revisions")).size();

        JsonNode plan = ok(post("/api/replica-sets/webdemo/rollouts/plan", JSON.writeValueAsString(Map.of("dockerCompose", NEW_COMPOSE))));
        assertThat(plan.get("maxUnavailable").asInt()).isEqualTo(1);
        assertThat(plan.get("maxSurge").asInt()).isEqualTo(0);
        assertThat(plan.get("refusals")).isEmpty();
        List<String> slots = new ArrayList<>();
        for (JsonNode action : plan.get("actions")) {
            assertThat(action.has("ordinal") && action.has("slot") && action.has("action") && action.has("reason") && action.has("wave")).isTrue();
            if (!"NONE".equals(action.get("action").asText())) {
                slots.add(action.get("slot").asText());
            }
        }
        assertThat(slots).as("descending ordinals, one per wave").containsExactly("webdemo-2", "webdemo-1", "webdemo-0");
        assertThat(plan.get("waves")).hasSize(3);

        JsonNode wider = ok(post("/api/replica-sets/webdemo/rollouts/plan",
                JSON.writeValueAsString(Map.of("dockerCompose", NEW_COMPOSE, "updatePolicy", Map.of("maxUnavailable", 2)))));
        assertThat(wider.get("maxUnavailable").asInt()).isEqualTo(2);
        assertThat(wider.get("waves").size()).as("two at a time").isEqualTo(2);

        JsonNode same = ok(post("/api/replica-sets/webdemo/rollouts/plan", JSON.writeValueAsString(Map.of("dockerCompose", FLEET_COMPOSE))));
        assertThat(same.get("waves")).as("nothing to do for the compose they run").isEmpty();

        assertThat(runtime.createProcessInstanceQuery().count()).as("a preview starts nothing").isEqualTo(before);
        assertThat(ok(get("/api/replica-sets/webdemo/revisions")).size()).as("and records no revision").isEqualTo(revisionsBefore);
    }

    @Test
    @Order(4)
    void rolloutsCarryTheOverrideTheTargetAndTheRollbackRevisionAndTheReportShowsThem() throws Exception {
        awaitAllRunning();

        // a rollout with an override: the variable holds the override as JSON text
        String pid = created(post("/api/replica-sets/webdemo/rollouts",
                JSON.writeValueAsString(Map.of("dockerCompose", NEW_COMPOSE, "updatePolicy", Map.of("maxUnavailable", 2)))));
        assertThat(JSON.readTree((String) runtime.getVariable(pid, RolloutVariables.UPDATE_POLICY_OVERRIDE)))
                .isEqualTo(JSON.readTree("{\"maxUnavailable\": 2}"));
        assertThat(runtime.getVariable(pid, RolloutVariables.TARGET_ORDINALS)).isNull();
        refused(post("/api/replica-sets/webdemo/rollouts/plan", "{}"), HttpStatus.BAD_REQUEST, "dockerCompose");

        // waiting for its approval: the set and the report say so; resume is refused, there is nothing paused
        Task approval = awaitTask(pid);
        JsonNode set = ok(get("/api/replica-sets/webdemo"));
        assertThat(set.get("rollout").get("processInstanceId").asText()).isEqualTo(pid);
        assertThat(set.get("rollout").get("paused").asBoolean()).isFalse();
        JsonNode report = ok(get("/api/rollouts/" + pid));
        assertThat(report.get("state").asText()).isEqualTo("running");
        assertThat(report.get("replicaSet").asText()).isEqualTo(SET);
        assertThat(report.get("requestedBy").asText()).isEqualTo("admin");
        assertThat(report.get("paused").asBoolean()).isFalse();
        assertThat(report.get("blockers").toString()).contains("waiting: approval");
        assertThat(report.get("updatePolicy").get("maxUnavailable").asInt()).isEqualTo(2);
        refused(post("/api/rollouts/" + pid + "/resume", ""), HttpStatus.CONFLICT, "the rollout is not paused");
        refused(post("/api/replica-sets/webdemo/rollouts", JSON.writeValueAsString(Map.of("dockerCompose", NEW_COMPOSE))),
                HttpStatus.CONFLICT, "already running");

        // rejected: the report shows who decided what, and the outcome
        ResponseEntity<String> done = admin().postForEntity("/engine-rest/task/" + approval.getId() + "/complete",
                json("{\"variables\": {\"approved\": {\"value\": false, \"type\": \"Boolean\"}}}"), String.class);
        assertThat(done.getStatusCode()).isEqualTo(HttpStatus.NO_CONTENT);
        await().atMost(Duration.ofSeconds(30)).until(() -> history.createHistoricProcessInstanceQuery().processInstanceId(pid).finished().count() == 1);
        JsonNode ended = ok(get("/api/rollouts/" + pid));
        assertThat(ended.get("state").asText()).as("a rejected rollout ended rejected, not completed").isEqualTo("rejected");
        assertThat(ended.get("endedAt").asText()).isNotBlank();
        assertThat(ended.get("outcome").asText()).isNotBlank();
        assertThat(ended.get("blockers")).isEmpty();
        JsonNode decided = ended.get("approvals").get(0);
        assertThat(decided.get("decision").asText()).isEqualTo("rejected");
        assertThat(decided.get("by").asText()).isEqualTo("admin");
        assertThat(decided.get("at").asText()).isNotBlank();
        refused(post("/api/rollouts/" + pid + "/pause", ""), HttpStatus.NOT_FOUND, "has already ended");

        // one instance, by default on the set's update revision
        String single = created(post("/api/replica-sets/webdemo/instances/1/rollout", ""));
        assertThat(runtime.getVariable(single, RolloutVariables.TARGET_ORDINALS)).isEqualTo("1");
        assertThat(runtime.getVariable(single, RolloutVariables.UPDATE_POLICY_OVERRIDE)).isNull();
        String target = (String) runtime.getVariable(single, RolloutVariables.TARGET_COMPOSE);
        assertThat(target).isIn(FLEET_COMPOSE, NEW_COMPOSE);
        E2eSupport.deleteIfRunning(runtime, single);
        JsonNode deleted = ok(get("/api/rollouts/" + single));
        assertThat(deleted.get("state").asText()).as(deleted.toString()).endsWith("terminated");
        assertThat(deleted.get("outcome").asText()).isEqualTo("terminated: test cleanup");

        // a rollback to a recorded revision is a rollout of its compose, marked with the revision
        JsonNode rollback = ok(post("/api/replica-sets/webdemo/rollbacks", "{\"revision\": 1}"));
        String back = rollback.get("processInstanceId").asText();
        assertThat(rollback.get("revision").asInt()).isEqualTo(1);
        assertThat(runtime.getVariable(back, RolloutVariables.ROLLBACK_TO_REVISION)).isEqualTo(1);
        assertThat(runtime.getVariable(back, RolloutVariables.TARGET_COMPOSE)).isEqualTo(FLEET_COMPOSE);
        assertThat(ok(get("/api/rollouts/" + back)).get("rollbackToRevision").asInt()).isEqualTo(1);
    }

    @Test
    @Order(5)
    void pauseTakesEffectAtTheNextWaveResumeContinuesAndAbortEndsTheRollout() throws Exception {
        awaitAllRunning();
        String pid = created(post("/api/replica-sets/webdemo/rollouts",
                JSON.writeValueAsString(Map.of("dockerCompose", "services:\n  web:\n    image: nginxdemos/hello:0.5\n"))));
        refused(post("/api/rollouts/" + pid + "/resume", ""), HttpStatus.CONFLICT, "the rollout is not paused");
        Task approval = awaitTask(pid);
        refused(post("/api/rollouts/" + pid + "/pause", ""), HttpStatus.CONFLICT, "cannot be paused now");
        admin().postForEntity("/engine-rest/task/" + approval.getId() + "/complete",
                json("{\"variables\": {\"approved\": {\"value\": true, \"type\": \"Boolean\"}}}"), String.class);

        // accepted once the waves have started (right after the approval, unless an asynchronous step comes first)
        ResponseEntity<String> pause = await().atMost(Duration.ofSeconds(10))
                .until(() -> post("/api/rollouts/" + pid + "/pause", "{\"reason\": \"the DBA asked to wait\"}"), r -> r.getStatusCode() == HttpStatus.ACCEPTED);
        assertThat(JSON.readTree(pause.getBody())).isEqualTo(JSON.readTree("{\"processInstanceId\": \"" + pid
                + "\", \"requested\": \"pause\", \"reason\": \"the DBA asked to wait\"}"));

        JsonNode paused = await().atMost(Duration.ofSeconds(60)).until(() -> ok(get("/api/rollouts/" + pid)), r -> r.get("paused").asBoolean());
        assertThat(paused.get("blockers").toString()).contains("paused: waiting for resume");
        assertThat(paused.get("state").asText()).isEqualTo("running");
        assertThat(ok(get("/api/replica-sets/webdemo")).get("rollout").get("paused").asBoolean()).isTrue();
        assertThat(paused.get("approvals").get(0).get("decision").asText()).isEqualTo("approved");

        ResponseEntity<String> resume = post("/api/rollouts/" + pid + "/resume", "");
        assertThat(resume.getStatusCode()).as(resume.getBody()).isEqualTo(HttpStatus.ACCEPTED);
        assertThat(ok(get("/api/rollouts/" + pid)).get("paused").asBoolean()).isFalse();
        refused(post("/api/rollouts/" + pid + "/resume", ""), HttpStatus.CONFLICT, "the rollout is not paused");
        // who paused and resumed, when and why, in the report (and in the rollout's controls variable, seen in Cockpit)
        JsonNode controls = ok(get("/api/rollouts/" + pid)).get("controls");
        assertThat(controls).hasSize(2);
        assertThat(controls.get(0).get("action").asText()).isEqualTo("pause");
        assertThat(controls.get(0).get("by").asText()).isEqualTo("admin");
        assertThat(controls.get(0).get("reason").asText()).isEqualTo("the DBA asked to wait");
        assertThat(controls.get(0).get("at").asText()).matches("\\d{4}-.*Z");
        assertThat(controls.get(1).get("action").asText()).isEqualTo("resume");
        assertThat(controls.get(1).has("reason")).isFalse();
        refused(post("/api/rollouts/" + pid + "/pause", "{\"reason\": 5}"), HttpStatus.BAD_REQUEST, "reason: must be a string");

        ResponseEntity<String> abort = post("/api/rollouts/" + pid + "/abort", "");
        if (abort.getStatusCode() == HttpStatus.ACCEPTED) {
            await().atMost(Duration.ofSeconds(30)).until(() -> history.createHistoricProcessInstanceQuery().processInstanceId(pid).finished().count() == 1);
            JsonNode aborted = ok(get("/api/rollouts/" + pid));
            assertThat(aborted.get("outcome").asText()).as(aborted.toString()).containsIgnoringCase("abort");
        } else {
            // the rollout had already left its waves: only then may abort be refused
            refused(abort, HttpStatus.CONFLICT, "cannot be aborted now");
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> history.createHistoricProcessInstanceQuery().processInstanceId(pid).finished().count() == 1);
        refused(post("/api/rollouts/" + pid + "/abort", ""), HttpStatus.NOT_FOUND, "has already ended");
    }

    /** An abort keeps who asked, when and why, though it ends the rollout; the report and the set's history say aborted. */
    @Test
    @Order(6)
    void anAbortEndsThePausedRolloutAndItsReportSaysWhoAbortedItWhyAndThatItWasAborted() throws Exception {
        awaitAllRunning();
        String pid = created(post("/api/replica-sets/webdemo/rollouts",
                JSON.writeValueAsString(Map.of("dockerCompose", "services:\n  web:\n    image: nginxdemos/hello:0.6\n"))));
        Task approval = awaitTask(pid);
        admin().postForEntity("/engine-rest/task/" + approval.getId() + "/complete",
                json("{\"variables\": {\"approved\": {\"value\": true, \"type\": \"Boolean\"}}}"), String.class);
        await().atMost(Duration.ofSeconds(10)).until(() -> post("/api/rollouts/" + pid + "/pause", ""), r -> r.getStatusCode() == HttpStatus.ACCEPTED);
        await().atMost(Duration.ofSeconds(60)).until(() -> ok(get("/api/rollouts/" + pid)), r -> r.get("paused").asBoolean());

        ResponseEntity<String> abort = post("/api/rollouts/" + pid + "/abort", "{\"reason\": \"wrong image tag\"}");
        assertThat(abort.getStatusCode()).as(abort.getBody()).isEqualTo(HttpStatus.ACCEPTED);
        await().atMost(Duration.ofSeconds(30)).until(() -> history.createHistoricProcessInstanceQuery().processInstanceId(pid).finished().count() == 1);
        JsonNode aborted = ok(get("/api/rollouts/" + pid));
        assertThat(aborted.get("state").asText()).as(aborted.toString()).isEqualTo("aborted");
        JsonNode controls = aborted.get("controls");
        JsonNode last = controls.get(controls.size() - 1);
        assertThat(last.get("action").asText()).isEqualTo("abort");
        assertThat(last.get("by").asText()).isEqualTo("admin");
        assertThat(last.get("reason").asText()).isEqualTo("wrong image tag");
        JsonNode row = null;
        for (JsonNode procedure : ok(get("/api/replica-sets/webdemo/procedures?kind=rollout")).get("procedures")) {
            if (pid.equals(procedure.path("processInstanceId").asText())) {
                row = procedure;
            }
        }
        assertThat(row).as("the set's history lists it").isNotNull();
        assertThat(row.get("state").asText()).as(row.toString()).isEqualTo("aborted");

        // the abort left the set on two revisions: the set says which slot runs which, and so does the Fleet's row
        int update = aborted.get("updateRevision").asInt();
        JsonNode mixed = ok(get("/api/replica-sets/webdemo")).get("mixedRevisions");
        assertThat(mixed).as("mixedRevisions").isNotNull();
        assertThat(mixed.findValuesAsText("slot")).containsExactly("webdemo-0", "webdemo-1", "webdemo-2");
        // the wave it finished runs the update revision; the others run what they ran (earlier tests leave them mixed too)
        assertThat(mixed.findValues("revision").stream().map(JsonNode::asInt).distinct().count()).isGreaterThanOrEqualTo(2);
        assertThat(mixed.findValues("revision").stream().map(JsonNode::asInt)).contains(update);
        JsonNode fleetRow = null;
        for (JsonNode set : ok(get("/api/fleet")).get("sets")) {
            if ("webdemo".equals(set.get("name").asText())) {
                fleetRow = set;
            }
        }
        assertThat(fleetRow.get("mixedRevisions")).isEqualTo(mixed);

        // each slot's last hour, from the registry: every slot has its changes, the last one running, as all three are
        JsonNode past = ok(get("/api/replica-sets/webdemo/instance-history"));
        for (int ordinal = 0; ordinal < 3; ordinal++) {
            JsonNode slot = past.get("slots").get(String.valueOf(ordinal));
            assertThat(slot).as("changes of slot %d", ordinal).isNotEmpty();
            assertThat(slot.get(slot.size() - 1).get("status").asText()).isEqualTo("running");
        }
        ResponseEntity<String> badWindow = get("/api/replica-sets/webdemo/instance-history?minutes=0");
        assertThat(badWindow.getStatusCode()).isEqualTo(HttpStatus.BAD_REQUEST);
        assertThat(badWindow.getBody()).contains("minutes: must be between 1 and 1440 (was 0)");
        assertThat(get("/api/replica-sets/nosuch/instance-history").getStatusCode()).isEqualTo(HttpStatus.NOT_FOUND);
    }

    private Task awaitTask(String pid) {
        return await().atMost(Duration.ofSeconds(30))
                .until(() -> tasks.createTaskQuery().processInstanceId(pid).singleResult(), t -> t != null);
    }

    private void awaitAllRunning() {
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            JsonNode set = ok(get("/api/replica-sets/webdemo"));
            int running = 0;
            for (JsonNode instance : set.get("instances")) {
                if ("running".equals(instance.path("status").asText())) {
                    running++;
                }
            }
            return running == 3;
        });
    }

    private static JsonNode condition(JsonNode instance, String type) {
        for (JsonNode c : instance.get("conditions")) {
            if (type.equals(c.get("type").asText())) {
                return c;
            }
        }
        throw new AssertionError("no condition " + type + " in " + instance);
    }

    private TestRestTemplate admin() {
        return http.withBasicAuth("admin", "admin");
    }

    private ResponseEntity<String> get(String path) {
        return admin().getForEntity(path, String.class);
    }

    private ResponseEntity<String> post(String path, String body) {
        return admin().postForEntity(path, json(body), String.class);
    }

    private static JsonNode ok(ResponseEntity<String> response) throws Exception {
        assertThat(response.getStatusCode()).as(response.getBody()).isIn(HttpStatus.OK, HttpStatus.CREATED);
        return JSON.readTree(response.getBody());
    }

    private static String created(ResponseEntity<String> response) throws Exception {
        assertThat(response.getStatusCode()).as(response.getBody()).isEqualTo(HttpStatus.CREATED);
        return JSON.readTree(response.getBody()).get("processInstanceId").asText();
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
