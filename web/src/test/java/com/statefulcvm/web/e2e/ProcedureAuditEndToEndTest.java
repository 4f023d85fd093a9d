package com.statefulcvm.web.e2e;

import com.statefulcvm.web.SimulatorView;
import com.statefulcvm.web.RolloutDriver;
import com.statefulcvm.web.E2eSupport;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.statefulcvm.delegates.procedure.FailoverVariables;
import org.camunda.bpm.engine.HistoryService;
import org.camunda.bpm.engine.RuntimeService;
import org.camunda.bpm.engine.TaskService;
import org.camunda.bpm.engine.history.HistoricProcessInstance;
import org.camunda.bpm.engine.task.Task;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.client.TestRestTemplate;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Issue 15's audit items over real HTTP on the embedded simulator: the approval before the leader's step (the leader
 * reported by the simulator's AppLeadership through the set's role probe, as patroni-demo's is in the demo), and the
 * reports of heals, failovers and scales beside the rollout report, with a set's list of procedures.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.DEFINED_PORT)
@ActiveProfiles({"e2e", "procedures"})
class ProcedureAuditEndToEndTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String LEADER_SET = "leaderdemo";
    private static final String WEB_SET = "webaudit";

    @DynamicPropertySource
    static void port(DynamicPropertyRegistry registry) {
        E2eSupport.onFreePortWithDatabase(registry, "procedure-audit");
    }

    @Autowired
    TestRestTemplate http;
    @Autowired
    TaskService tasks;
    @Autowired
    HistoryService history;
    @Autowired
    RuntimeService runtime;

    @AfterEach
    void endWhatIsLeft() {
        E2eSupport.deleteRunning(runtime, "rollout");
        E2eSupport.deleteRunning(runtime, FailoverVariables.PROCESS_KEY);
    }

    private RolloutDriver driver(String set) {
        return new RolloutDriver(http, tasks, history, set);
    }

    private TestRestTemplate admin() {
        return http.withBasicAuth("admin", "admin");
    }

    private JsonNode get(String path) throws Exception {
        ResponseEntity<String> answer = admin().getForEntity(path, String.class);
        assertThat(answer.getStatusCode()).as(path + ": " + answer.getBody()).isEqualTo(HttpStatus.OK);
        return JSON.readTree(answer.getBody());
    }

    private void notFound(String path, String message) throws Exception {
        ResponseEntity<String> answer = admin().getForEntity(path, String.class);
        assertThat(answer.getStatusCode()).as(path + ": " + answer.getBody()).isEqualTo(HttpStatus.NOT_FOUND);
        assertThat(JSON.readTree(answer.getBody()).path("message").asText()).contains(message);
    }

    private void badRequest(String path, String message) throws Exception {
        ResponseEntity<String> answer = admin().getForEntity(path, String.class);
        assertThat(answer.getStatusCode()).as(path + ": " + answer.getBody()).isEqualTo(HttpStatus.BAD_REQUEST);
        assertThat(JSON.readTree(answer.getBody()).path("message").asText()).contains(message);
    }

    private String started(ResponseEntity<String> answer) throws Exception {
        assertThat(answer.getStatusCode()).as(answer.getBody()).isEqualTo(HttpStatus.CREATED);
        return JSON.readTree(answer.getBody()).get("processInstanceId").asText();
    }

    private HistoricProcessInstance ended(String pid) {
        return await().atMost(Duration.ofSeconds(90)).until(() -> history.createHistoricProcessInstanceQuery()
                .processInstanceId(pid).finished().singleResult(), p -> p != null);
    }

    /** Makes leaderdemo-1 the leader: neither first nor last in ordinal order, so only the role-aware order puts it last. */
    private String leaderIsOne() throws Exception {
        driver(LEADER_SET).awaitAllRunning(3);
        String leader = LEADER_SET + "-1";
        assertThat(http.postForEntity("/simulator/_admin/cvms/" + leader + "/role", RolloutDriver.json(Map.of("leader", true)),
                String.class).getStatusCode().is2xxSuccessful()).isTrue();
        return leader;
    }

    private static String compose(String tag) {
        return "services:\n  db:\n    image: ghcr.io/zalando/spilo-16:3.3-p1\n    labels: [\"audit=" + tag + "\"]\n";
    }

    private static List<String> approvalsOf(JsonNode report) {
        List<String> out = new ArrayList<>();
        report.get("approvals").forEach(a -> out.add(a.get("task").asText() + " | " + a.get("decision").asText() + " | "
                + a.get("by").asText()));
        return out;
    }

    @Test
    void theLeadersStepWaitsForAnApprovalThatShowsTheStepsSoFarAndTheReportSaysWhoGaveIt() throws Exception {
        String leader = leaderIsOne();
        SimulatorView simulator = new SimulatorView(http);
        String leaderHashBefore = simulator.composeHash(leader);
        RolloutDriver driver = driver(LEADER_SET);
        String pid = driver.startRollout(compose("approved"));

        Task approval = driver.awaitTask(pid, "UserTask_ApproveLeaderStep");
        assertThat(approval.getName()).isEqualTo("Approve the leader's step: " + leader);
        assertThat(simulator.composeHash(leader)).as("the leader waits untouched").isEqualTo(leaderHashBefore);
        assertThat(simulator.composeHash(LEADER_SET + "-2")).as("the replicas went first").isNotEqualTo(leaderHashBefore);
        assertThat(simulator.composeHash(LEADER_SET + "-0")).isNotEqualTo(leaderHashBefore);
        Map<String, String> form = driver.formVariables(approval.getId());
        assertThat(form.get("leaderSlot")).isEqualTo(leader);
        assertThat(form.get("stepsSoFar")).contains("1. " + LEADER_SET + "-2 RESTART: ready on compose")
                .contains("2. " + LEADER_SET + "-0 RESTART");
        assertThat(form.get("leaderStep")).startsWith(leader + " leads the set; its action is RESTART.")
                .contains("Drain it (drain-generic)");
        JsonNode waiting = get("/api/rollouts/" + pid);
        assertThat(waiting.get("state").asText()).isEqualTo("running");
        assertThat(waiting.get("blockers").toString()).contains("waiting: approval (Approve the leader's step: " + leader + ")");
        System.out.println("leader's approval form: " + form.get("leaderStep").replace('\n', ' '));

        ResponseEntity<String> done = driver.completeTask(approval.getId(), Map.of("approved", Map.of("value", true, "type", "Boolean")));
        assertThat(done.getStatusCode()).isEqualTo(HttpStatus.NO_CONTENT);
        driver.awaitEnded(pid, "EndEvent_RolloutCompleted");
        assertThat(simulator.composeHash(leader)).isNotEqualTo(leaderHashBefore);

        JsonNode report = get("/api/rollouts/" + pid);
        assertThat(report.get("kind").asText()).isEqualTo("rollout");
        assertThat(approvalsOf(report)).containsExactly("Approve the leader's step: " + leader + " | approved | admin");
        List<String> stepSlots = new ArrayList<>();
        report.get("steps").forEach(s -> stepSlots.add(s.get("slot").asText()));
        assertThat(stepSlots).containsExactly(LEADER_SET + "-2", LEADER_SET + "-0", leader);
    }

    @Test
    void rejectingTheLeadersStepStopsTheRolloutWithTheLeaderUntouchedAndAnOverrideCanLeaveTheApprovalOut() throws Exception {
        String leader = leaderIsOne();
        SimulatorView simulator = new SimulatorView(http);
        String leaderHashBefore = simulator.composeHash(leader);
        RolloutDriver driver = driver(LEADER_SET);
        String pid = driver.startRollout(compose("rejected"));
        Task approval = driver.awaitTask(pid, "UserTask_ApproveLeaderStep");
        assertThat(driver.completeTask(approval.getId(), Map.of("approved", Map.of("value", false, "type", "Boolean")))
                .getStatusCode()).isEqualTo(HttpStatus.NO_CONTENT);
        driver.awaitEnded(pid, "EndEvent_RolloutAborted");
        assertThat(simulator.composeHash(leader)).as("the leader is left alone").isEqualTo(leaderHashBefore);
        JsonNode report = get("/api/rollouts/" + pid);
        assertThat(approvalsOf(report)).containsExactly("Approve the leader's step: " + leader + " | rejected | admin");
        assertThat(report.get("outcome").asText()).isEqualTo("stopped by the operator at a halt or an approval");

        String without = driver.startRollout(compose("no-leader-approval"), Map.of("approveLeader", false));
        // the override that leaves the leader's approval out is accepted by an approver first (issue 32)
        driver.approveAcceptingOverrides(without);
        driver.awaitEnded(without, "EndEvent_RolloutCompleted");
        assertThat(approvalsOf(get("/api/rollouts/" + without))).containsExactly("Approve rollout of " + LEADER_SET + " | approved | admin");
        assertThat(simulator.composeHash(leader)).isNotEqualTo(leaderHashBefore);
    }

    @Test
    void aSetsRolloutsHealsAndScalesEachHaveAReportAndAreListedNewestFirst() throws Exception {
        RolloutDriver driver = driver(WEB_SET);
        driver.awaitAllRunning(2);
        // a rollout of a set without a leader: the approval before it, none before any instance
        String rollout = driver.startRollout("services:\n  web:\n    image: nginxdemos/hello:0.4\n");
        driver.approve(rollout);
        driver.awaitEnded(rollout, "EndEvent_RolloutCompleted");
        assertThat(approvalsOf(get("/api/rollouts/" + rollout))).containsExactly("Approve rollout of " + WEB_SET + " | approved | admin");

        // a heal the operator asked for, approved in Tasklist (auto-healing approval: always)
        String heal = started(admin().postForEntity("/api/replica-sets/" + WEB_SET + "/instances/0/heal",
                RolloutDriver.json(Map.of("reason", "audit trail test")), String.class));
        Task restart = await().atMost(Duration.ofSeconds(60))
                .until(() -> tasks.createTaskQuery().processInstanceId(heal).singleResult(), t -> t != null);
        JsonNode healWaiting = get("/api/heals/" + heal);
        assertThat(healWaiting.get("state").asText()).isEqualTo("running");
        assertThat(healWaiting.get("blockers").toString()).contains("waiting: approval");
        assertThat(driver.completeTask(restart.getId(), Map.of("approved", Map.of("value", true, "type", "Boolean")))
                .getStatusCode()).isEqualTo(HttpStatus.NO_CONTENT);
        HistoricProcessInstance healed = ended(heal);
        JsonNode healReport = get("/api/heals/" + heal);
        System.out.println("heal report: " + healReport.toPrettyString());
        assertThat(healReport.get("kind").asText()).isEqualTo("heal");
        assertThat(healReport.get("replicaSet").asText()).isEqualTo(WEB_SET);
        assertThat(healReport.get("slot").asText()).isEqualTo(WEB_SET + "-0");
        assertThat(healReport.get("trigger").asText()).isEqualTo("operator");
        assertThat(healReport.get("reason").asText()).isEqualTo("requested by admin: audit trail test");
        assertThat(healReport.get("requestedBy").asText()).isEqualTo("admin");
        assertThat(healReport.get("state").asText()).isEqualTo("completed");
        assertThat(healReport.get("endedAt").asText()).isNotEmpty();
        assertThat(healReport.get("result").asText()).isNotEmpty();
        assertThat(healReport.get("outcome").asText()).isNotEmpty();
        assertThat(approvalsOf(healReport)).containsExactly(restart.getName() + " | approved | admin");
        List<String> healSteps = new ArrayList<>();
        healReport.get("steps").forEach(s -> healSteps.add(s.get("step").asText()));
        assertThat(healSteps).startsWith("Look at the slot and prepare the heal").contains(restart.getName());
        assertThat(healReport.get("blockers")).isEmpty();

        // a scale up: its steps are the slots it added
        String scale = started(admin().postForEntity("/api/replica-sets/" + WEB_SET + "/scale",
                RolloutDriver.json(Map.of("replicas", 3)), String.class));
        assertThat(ended(scale).getEndActivityId()).isEqualTo("EndEvent_Scaled");
        JsonNode scaleReport = get("/api/scales/" + scale);
        assertThat(scaleReport.get("kind").asText()).isEqualTo("scale");
        assertThat(scaleReport.get("fromReplicas").asInt()).isEqualTo(2);
        assertThat(scaleReport.get("toReplicas").asInt()).isEqualTo(3);
        assertThat(scaleReport.get("direction").asText()).isEqualTo("UP");
        assertThat(scaleReport.get("result").asText()).isEqualTo("scaled");
        assertThat(scaleReport.get("outcome").asText()).startsWith("scaled " + WEB_SET + " from 2 to 3 replicas");
        assertThat(scaleReport.get("steps").toString()).contains(WEB_SET + "-2");

        // the set's procedures, newest first, each pointing at its report
        JsonNode list = get("/api/replica-sets/" + WEB_SET + "/procedures");
        List<String> rows = new ArrayList<>();
        List<Instant> starts = new ArrayList<>();
        list.get("procedures").forEach(p -> {
            rows.add(p.get("kind").asText() + " " + p.get("processInstanceId").asText() + " " + p.get("requestedBy").asText()
                    + " " + p.get("state").asText());
            starts.add(Instant.parse(p.get("startedAt").asText()));
        });
        assertThat(rows).containsExactly("scale " + scale + " admin completed", "heal " + heal + " admin completed",
                "rollout " + rollout + " admin completed");
        assertThat(starts).isSortedAccordingTo(java.util.Comparator.reverseOrder());
        assertThat(list.get("total").asLong()).isEqualTo(3);
        assertThat(list.get("procedures").get(1).get("slot").asText()).isEqualTo(WEB_SET + "-0");
        assertThat(list.get("procedures").get(1).get("endedAt").asText()).isEqualTo(healed.getEndTime().toInstant().toString());
        assertThat(list.get("procedures").get(0).get("report").asText()).isEqualTo("/api/scales/" + scale);

        JsonNode page = get("/api/replica-sets/" + WEB_SET + "/procedures?limit=1&offset=1");
        assertThat(page.get("procedures")).hasSize(1);
        assertThat(page.get("procedures").get(0).get("processInstanceId").asText()).isEqualTo(heal);
        assertThat(page.get("total").asLong()).isEqualTo(3);
        JsonNode heals = get("/api/replica-sets/" + WEB_SET + "/procedures?kind=heal");
        assertThat(heals.get("procedures")).hasSize(1);
        assertThat(get("/api/replica-sets/" + LEADER_SET + "/procedures?kind=heal").get("procedures")).isEmpty();

        // refusals: ids of another kind, unknown ids and sets, bad paging
        notFound("/api/heals/" + rollout, "unknown heal '" + rollout + "': it is a rollout (GET /api/rollouts/" + rollout + ")");
        notFound("/api/rollouts/" + heal, "unknown rollout '" + heal + "'");
        notFound("/api/scales/" + heal, "it is a heal");
        notFound("/api/failovers/no-such-id", "unknown failover 'no-such-id'");
        notFound("/api/replica-sets/nosuchset/procedures", "unknown replica set 'nosuchset'");
        badRequest("/api/replica-sets/" + WEB_SET + "/procedures?limit=0", "limit: must be between 1 and 100 (was 0)");
        badRequest("/api/replica-sets/" + WEB_SET + "/procedures?offset=x", "offset: must be a whole number (was 'x')");
        badRequest("/api/replica-sets/" + WEB_SET + "/procedures?kind=deploy",
                "kind: must be one of [rollout, heal, failover, scale, lights-out-recovery, adoption] (was 'deploy')");
    }

    @Test
    void aFailoverHasAReportWhileItRunsAndAfterItEnds() throws Exception {
        String pid = started(admin().postForEntity("/api/replica-sets/pgaudit/failover",
                RolloutDriver.json(Map.of("reason", "audit of the leader")), String.class));
        JsonNode running = await().atMost(Duration.ofSeconds(60)).until(() -> get("/api/failovers/" + pid),
                r -> !r.get("steps").isEmpty());
        assertThat(running.get("kind").asText()).isEqualTo("failover");
        assertThat(running.get("replicaSet").asText()).isEqualTo("pgaudit");
        assertThat(running.get("requestedBy").asText()).isEqualTo("admin");
        assertThat(running.get("reason").asText()).isEqualTo("requested by admin: audit of the leader");
        assertThat(running.get("steps").get(0).get("step").asText()).isNotEmpty();
        notFound("/api/rollouts/" + pid, "unknown rollout");

        // A simulated CVM has no Patroni behind it: the failover waits out its grace; end it as an operator would.
        if (runtime.createProcessInstanceQuery().processInstanceId(pid).count() > 0) {
            runtime.deleteProcessInstance(pid, "ended by the test");
        }
        JsonNode after = get("/api/failovers/" + pid);
        System.out.println("failover report: " + after.toPrettyString());
        assertThat(after.get("state").asText()).isIn("externally terminated", "internally terminated", "completed");
        assertThat(after.get("endedAt").asText()).isNotEmpty();
        assertThat(after.get("outcome").asText()).isNotEmpty();
        assertThat(after.get("blockers")).isEmpty();
        JsonNode listed = get("/api/replica-sets/pgaudit/procedures?kind=failover");
        assertThat(listed.get("procedures").get(0).get("processInstanceId").asText()).isEqualTo(pid);
        assertThat(listed.get("procedures").get(0).get("report").asText()).isEqualTo("/api/failovers/" + pid);
    }
}
