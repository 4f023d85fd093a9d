package com.statefulcvm.web.e2e;

import com.statefulcvm.delegates.procedure.AdmissionStarter;
import com.statefulcvm.delegates.support.ReplicaSets;
import com.statefulcvm.delegates.support.SlotReader;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.web.SimulatorView;
import com.statefulcvm.web.RolloutDriver;
import com.statefulcvm.web.E2eSupport;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.camunda.bpm.engine.HistoryService;
import org.camunda.bpm.engine.TaskService;
import org.camunda.bpm.engine.task.Task;
import org.camunda.bpm.engine.history.HistoricProcessInstance;
import org.camunda.bpm.engine.history.HistoricVariableInstance;
import org.junit.jupiter.api.AfterEach;
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
import java.time.Instant;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Admission enforced outside our procedures, end to end: the application, its health monitors and the embedded
 * simulator over real HTTP. A CVM is restarted behind the orchestrator's back through the simulator's Phala API, so
 * quickly (a 5 ms restart) that no round sees it leave "running": only its boot marker (Phala's uptime) tells. With
 * tampered evidence the monitor re-attests it (admit-instance.bpmn), fences it (stopped, or drained and left running),
 * the set's status says "fenced: attestation failed: ...", and no heal brings it back; honest evidence is admitted
 * again; an operator's readmit after the evidence is fixed brings the fenced instance back.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.DEFINED_PORT)
@ActiveProfiles({"e2e", "admission"})
class AdmissionEndToEndTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** The e2e profile's CVM update time, put back after each test. */
    private static final long UPDATE_MS = 400;

    @DynamicPropertySource
    static void port(DynamicPropertyRegistry registry) {
        E2eSupport.onFreePortWithDatabase(registry, "admission-e2e");
    }

    @Autowired
    TestRestTemplate http;
    @Autowired
    HistoryService history;
    @Autowired
    TaskService tasks;
    @Autowired
    AdmissionStarter admissions;
    @Autowired
    ReplicaSets sets;
    @Autowired
    SlotReader slots;

    @AfterEach
    void honestAgain() {
        for (String cvm : List.of("admit-stop-0", "admit-stop-1", "admit-drain-0", "admit-drain-1", "admit-all-0", "admit-all-1",
                "admit-all-2")) {
            http.postForEntity("/simulator/_admin/cvms/" + cvm + "/evidence", json(Map.of("tamper", "none")), String.class);
        }
        http.postForEntity("/simulator/_admin/cvms/admit-race-0/evidence", json(Map.of("tamper", "none")), String.class);
        http.postForEntity("/simulator/_admin/cvms/admit-race-1/evidence", json(Map.of("tamper", "none")), String.class);
        http.exchange("/simulator/_admin/timings", HttpMethod.PUT, json(Map.of("restartMs", 100, "updateMs", UPDATE_MS)), String.class);
    }

    /**
     * The monitor decides to re-attest a slot from what it read at the start of its round; a rollout that takes the
     * slot meanwhile updates the CVM, whose guest agent answers nothing while Phala updates it. That look's verdict
     * must fence nothing: the rollout attests the slot itself once its update is done, and completes. Played here by
     * starting the monitor's re-attestation (as its round does) while the rollout updates the slot, with the evidence
     * made to fail whatever moment it is fetched. Without the guard the updating CVM was fenced and stopped and the
     * rollout halted (seen in SingleNodeRestartIT).
     */
    @Test
    void theMonitorsLookAtASlotARolloutTookMeanwhileFencesNothingAndTheRolloutCompletes() throws Exception {
        awaitAdmitted("admit-race", 0);
        awaitAdmitted("admit-race", 1);
        http.exchange("/simulator/_admin/timings", HttpMethod.PUT, json(Map.of("updateMs", 8000)), String.class);
        RolloutDriver rollout = new RolloutDriver(http, tasks, history, "admit-race");
        String pid = rollout.startRollout("services:\n  web:\n    image: nginxdemos/hello:0.4\n");
        String updating = await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50)).until(() -> {
            for (String name : List.of("admit-race-0", "admit-race-1")) {
                if ("updating".equals(cvm(name).path("status").asText())) {
                    return name;
                }
            }
            return null;
        }, name -> name != null);
        int ordinal = Integer.parseInt(updating.substring(updating.lastIndexOf('-') + 1));
        tamper(updating, "signature");
        ReplicaSetSpec spec = sets.spec("admit-race");
        Instant looked = Instant.now();
        admissions.start(spec, ordinal, slots.find(spec, updating).orElseThrow(),
                "health monitor: no attestation of its current boot (read before the rollout took the slot)", new HashMap<>());

        HistoricProcessInstance admit = admissionOf("admit-race/" + ordinal, looked);
        assertThat(admit.getEndActivityId()).as("the monitor's look yields to the rollout").isEqualTo("EndEvent_YieldedToProcedure");
        assertThat(variable(admit, "fenceYieldedTo")).isEqualTo("rollout " + pid + " is working on " + updating);
        assertThat(instance("admit-race", ordinal).hasNonNull("fenced")).as("not fenced").isFalse();
        System.out.printf("re-attestation %s of %s started while rollout %s updated it: %s; %s%n", admit.getId(), updating, pid,
                variable(admit, "attestationReason"), variable(admit, "fenceYieldedTo"));

        tamper(updating, "none");
        rollout.awaitEnded(pid, "EndEvent_RolloutCompleted");
        JsonNode after = instance("admit-race", ordinal);
        assertThat(after.hasNonNull("fenced")).isFalse();
        assertThat(after.path("attested").asBoolean(false)).as("the rollout attested it").isTrue();
    }

    @Test
    void aCvmRestartedBehindOurBackWithTamperedEvidenceIsFencedNotHealedAndReadmittedOnceHonest() throws Exception {
        JsonNode before = awaitAdmitted("admit-stop", 1);
        tamper("admit-stop-1", "signature");
        Instant restarted = restartBehindOurBack("admit-stop-1", before);

        JsonNode fenced = await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                .until(() -> instance("admit-stop", 1), i -> i.hasNonNull("fenced"));
        assertThat(fenced.get("fenced").asText()).startsWith("fenced (stopped): attestation failed: QUOTE_INVALID");
        assertThat(fenced.path("attested").asBoolean(false)).as("not admitted").isFalse();
        HistoricProcessInstance admit = admissionOf("admit-stop/1", restarted);
        assertThat(admit.getEndActivityId()).isEqualTo("EndEvent_Fenced");
        System.out.printf("admit-stop-1 restarted behind our back with tampered evidence: %s; re-attested by %s: %s%n",
                variable(admit, "admissionReason"), admit.getId(), fenced.get("fenced").asText());
        await().atMost(Duration.ofSeconds(10)).until(() -> "stopped".equals(cvm("admit-stop-1").get("status").asText()));
        assertThat(set("admit-stop").get("readyReplicas").asInt()).isEqualTo(1);

        // the monitor holds a fenced slot: a stopped CVM is not a failure to heal, for as many rounds as we watch
        await().during(Duration.ofSeconds(4)).atMost(Duration.ofSeconds(6)).until(() -> heals("admit-stop/1").isEmpty());
        JsonNode slot = health("admit-stop").get("instances").get(1);
        assertThat(slot.get("lastResult").asText()).startsWith("held: fenced (stopped): attestation failed");
        assertThat(slot.get("fenced").asText()).startsWith("fenced (stopped)");
        ResponseEntity<String> heal = admin().postForEntity("/api/replica-sets/admit-stop/instances/1/heal", null, String.class);
        assertThat(heal.getStatusCode()).isEqualTo(HttpStatus.CONFLICT);
        assertThat(heal.getBody()).contains("is fenced (stopped): attestation failed").contains("/instances/1/readmit");
        ResponseEntity<String> notFenced = admin().postForEntity("/api/replica-sets/admit-stop/instances/0/readmit", null, String.class);
        assertThat(notFenced.getStatusCode()).isEqualTo(HttpStatus.CONFLICT);
        assertThat(notFenced.getBody()).contains("admit-stop-0 is not fenced: nothing to readmit");

        tamper("admit-stop-1", "none");
        ResponseEntity<String> readmit = admin().postForEntity("/api/replica-sets/admit-stop/instances/1/readmit",
                json(Map.of("reason", "evidence fixed")), String.class);
        assertThat(readmit.getStatusCode()).isEqualTo(HttpStatus.CREATED);
        String pid = JSON.readTree(readmit.getBody()).get("processInstanceId").asText();
        HistoricProcessInstance readmitted = await().atMost(Duration.ofSeconds(60)).until(() -> history
                .createHistoricProcessInstanceQuery().processInstanceId(pid).finished().singleResult(), p -> p != null);
        assertThat(readmitted.getEndActivityId()).isEqualTo("EndEvent_HealedByRestart");
        JsonNode back = await().atMost(Duration.ofSeconds(30)).until(() -> instance("admit-stop", 1),
                i -> !i.hasNonNull("fenced") && i.path("attested").asBoolean(false) && i.path("healthy").asBoolean(false));
        assertThat(back.get("status").asText()).isEqualTo("running");
        assertThat(back.get("instanceId").asText()).as("a readmit keeps the instance").isEqualTo(before.get("instanceId").asText());
        await().atMost(Duration.ofSeconds(30)).until(() -> set("admit-stop").get("readyReplicas").asInt() == 2);
    }

    @Test
    void anHonestCvmRestartedBehindOurBackIsReattestedAndAdmitted() throws Exception {
        JsonNode before = awaitAdmitted("admit-stop", 0);
        Instant restarted = restartBehindOurBack("admit-stop-0", before);

        HistoricProcessInstance admit = await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                .until(() -> finishedAdmission("admit-stop/0", restarted), p -> p != null);
        assertThat(admit.getEndActivityId()).isEqualTo("EndEvent_Admitted");
        System.out.printf("admit-stop-0 restarted behind our back with honest evidence: %s; re-attested by %s%n",
                variable(admit, "admissionReason"), admit.getId());
        JsonNode after = await().atMost(Duration.ofSeconds(30)).until(() -> instance("admit-stop", 0),
                i -> i.path("attested").asBoolean(false) && i.path("healthy").asBoolean(false));
        assertThat(after.hasNonNull("fenced")).isFalse();
        assertThat(Instant.parse(after.get("attestedAt").asText())).as("attested again after the restart").isAfter(restarted);
        assertThat(heals("admit-stop/0")).isEmpty();
    }

    @Test
    void underDrainTheFencedCvmIsDrainedAndLeftRunningOutOfTheWorkload() throws Exception {
        JsonNode before = awaitAdmitted("admit-drain", 1);
        tamper("admit-drain-1", "compose-hash");
        restartBehindOurBack("admit-drain-1", before);

        JsonNode fenced = await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                .until(() -> instance("admit-drain", 1), i -> i.hasNonNull("fenced"));
        assertThat(fenced.get("fenced").asText()).startsWith("fenced (drained): attestation failed: ADMISSION_REJECTED")
                .contains("compose_hash");
        await("drained through run-hook.bpmn").atMost(Duration.ofSeconds(30)).until(() -> history
                .createHistoricActivityInstanceQuery().activityId("CallActivity_DrainFenced").finished().count() > 0);
        // first the condition, then that it holds: a slow machine may take longer than the hold to get there
        await().atMost(Duration.ofSeconds(30)).until(() -> heals("admit-drain/1").isEmpty()
                && "running".equals(cvm("admit-drain-1").get("status").asText()));
        await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(10)).until(() -> heals("admit-drain/1").isEmpty()
                && "running".equals(cvm("admit-drain-1").get("status").asText()));
        assertThat(set("admit-drain").get("readyReplicas").asInt()).as("a drained, fenced instance is not ready").isEqualTo(1);
        assertThat(health("admit-drain").get("instances").get(1).get("lastResult").asText()).startsWith("held: fenced (drained)");
    }

    /**
     * Issue 20: the compose hash we expect is computed from our own revision in dstack's app-compose form, never taken
     * from Phala: a CVM re-composed through the Phala API behind our back (its update restarts it with another compose
     * and Phala reports the new hash) is refused and fenced, not admitted. Without the binding it was admitted.
     */
    @Test
    void aCvmReComposedBehindOurBackIsFencedNotAdmitted() throws Exception {
        awaitAdmitted("admit-bind", 1);
        HttpHeaders yaml = new HttpHeaders();
        yaml.set("X-API-Key", "test-key");
        yaml.set("Content-Type", "text/yaml");
        Instant at = Instant.now();
        ResponseEntity<String> patched = http.exchange("/simulator/api/v1/cvms/admit-bind-1/docker-compose", HttpMethod.PATCH,
                new HttpEntity<>("services:\n  web:\n    image: attacker/hello:evil\n", yaml), String.class);
        assertThat(patched.getStatusCode().is2xxSuccessful()).as(patched.getBody()).isTrue();

        JsonNode fenced = await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                .until(() -> instance("admit-bind", 1), i -> i.hasNonNull("fenced"));
        System.out.println("admit-bind-1 re-composed behind our back: " + fenced.get("fenced").asText());
        assertThat(fenced.get("fenced").asText()).startsWith("fenced (stopped): attestation failed: ADMISSION_REJECTED")
                .contains("compose_hash").contains("none of the composes we intend");
        assertThat(admissionOf("admit-bind/1", at).getEndActivityId()).isEqualTo("EndEvent_Fenced");
    }

    /**
     * Issue 20: the instance_id comes from our own records (the one an attestation of ours last admitted), not from
     * Phala: a CVM deleted and created again in the slot through the Phala API (a new instance_id nobody of ours created)
     * is refused and fenced. Without the binding the re-attestation bound to Phala's new instance_id and admitted it.
     */
    @Test
    void aCvmReplacedBehindOurBackIsFencedNotAdmitted() throws Exception {
        JsonNode before = awaitAdmitted("admit-replace", 0);
        HttpHeaders key = new HttpHeaders();
        key.set("X-API-Key", "test-key");
        key.set("Content-Type", "application/json");
        Instant at = Instant.now();
        String appId = cvm("admit-replace-0").get("app_id").asText();
        assertThat(http.exchange("/simulator/api/v1/cvms/admit-replace-0", HttpMethod.DELETE, new HttpEntity<>(key), String.class)
                .getStatusCode().is2xxSuccessful()).isTrue();
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
                .until(() -> new SimulatorView(http).cvmOrNull("admit-replace-0") == null);
        ResponseEntity<String> created = http.exchange("/simulator/api/v1/apps/" + appId.replace("app_", "") + "/instances",
                HttpMethod.POST, new HttpEntity<>("{\"name\": \"admit-replace-0\"}", key), String.class);
        assertThat(created.getStatusCode().is2xxSuccessful()).as(created.getBody()).isTrue();

        JsonNode fenced = await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                .until(() -> instance("admit-replace", 0), i -> i.hasNonNull("fenced"));
        System.out.println("admit-replace-0 replaced behind our back: " + fenced.get("fenced").asText());
        assertThat(fenced.get("instanceId").asText()).isNotEqualTo(before.get("instanceId").asText());
        assertThat(fenced.get("fenced").asText()).startsWith("fenced (stopped): attestation failed: ADMISSION_REJECTED")
                .contains("instance_id").contains("is not the one bound to admit-replace-0 (" + before.get("instanceId").asText().substring(0, 16));
        assertThat(admissionOf("admit-replace/0", at).getEndActivityId()).isEqualTo("EndEvent_Fenced");
    }

    /**
     * Every CVM of a set refused at once (tampered evidence on all three, each restarted behind our back, as after a
     * platform change): a fence is a take-down, so the re-attestations fence at most the set's disruption budget (one
     * of three); the other two keep running unadmitted, the set shows AttestationRefused naming each cause, and an
     * approver is asked in Tasklist. Nothing more is stopped until the approver decides "fence": then both are fenced
     * and stopped, naming the approver. Without the budget's look at the fence step, all three were stopped at once.
     */
    @Test
    void everyCvmRefusedAtOnceFencesAtMostTheBudgetAndTheRestWaitForAnApprover() throws Exception {
        SimulatorView simulator = new SimulatorView(http);
        List<JsonNode> before = new java.util.ArrayList<>();
        for (int ordinal = 0; ordinal < 3; ordinal++) {
            before.add(awaitAdmitted("admit-all", ordinal));
        }
        for (int ordinal = 0; ordinal < 3; ordinal++) {
            tamper("admit-all-" + ordinal, "signature");
        }
        // the mark comes before the first restart: the monitor may refuse and fence admit-all-0 while 1 and 2 restart
        long beforeRestarts = simulator.lastEventSeq();
        for (int ordinal = 0; ordinal < 3; ordinal++) {
            restartBehindOurBack("admit-all-" + ordinal, before.get(ordinal));
        }

        JsonNode refused = await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).until(() -> set("admit-all"),
                s -> count(s, "fenced") + count(s, "refused") == 3);
        assertThat(count(refused, "fenced")).as("fenced: at most the budget's one").isEqualTo(1);
        assertThat(count(refused, "refused")).isEqualTo(2);
        JsonNode condition = setCondition(refused, "AttestationRefused");
        System.out.println("admit-all, every CVM refused at once: " + condition.get("reason").asText());
        assertThat(condition.get("reason").asText()).contains("QUOTE_INVALID").contains("kept running unadmitted")
                .contains("decide in Tasklist");
        for (JsonNode instance : refused.get("instances")) {
            if (instance.hasNonNull("refused")) {
                assertThat(instance.get("refused").asText()).startsWith("refused, kept running unadmitted");
                assertThat(cvm(instance.get("name").asText()).get("status").asText()).isEqualTo("running");
            }
        }
        Task decision = await().atMost(Duration.ofSeconds(30)).until(() -> tasks.createTaskQuery()
                .processDefinitionKey("decide-attestation-refusals").processInstanceBusinessKey("admit-all").singleResult(), t -> t != null);
        assertThat(decision.getName()).isEqualTo("Decide on the instances of admit-all refused beyond the budget");
        // first the fence's stop, however long the machine takes to get there; then that the monitor holds them: no
        // more stops, no heal, no re-attestation loop, for as many rounds as we watch
        await().atMost(Duration.ofSeconds(30)).until(() -> stoppedSince(simulator, beforeRestarts).size() == 1);
        await().during(Duration.ofSeconds(4)).atMost(Duration.ofSeconds(10)).until(() ->
                stoppedSince(simulator, beforeRestarts).size() == 1 && heals("admit-all/0").isEmpty()
                        && heals("admit-all/1").isEmpty() && heals("admit-all/2").isEmpty());
        assertThat(tasks.createTaskQuery().processDefinitionKey("decide-attestation-refusals").processInstanceBusinessKey("admit-all")
                .count()).as("one decision for the set, however many refusals").isEqualTo(1);

        ResponseEntity<String> done = new RolloutDriver(http, tasks, history, "admit-all").completeTask(decision.getId(),
                Map.of("decision", Map.of("value", "fence", "type", "String")));
        assertThat(done.getStatusCode().is2xxSuccessful()).as(done.getBody()).isTrue();
        JsonNode fenced = await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).until(() -> set("admit-all"),
                s -> count(s, "fenced") == 3 && count(s, "refused") == 0);
        await().atMost(Duration.ofSeconds(30)).until(() -> stoppedSince(simulator, beforeRestarts).size() == 3);
        assertThat(fenced.get("instances").findValuesAsText("fenced")).filteredOn(f -> f.contains("by admin's decision")).hasSize(2);
        assertThat(setCondition(fenced, "AttestationRefused")).isNull();
    }

    /**
     * A platform change: admit-pin pins an older platform than the one its CVMs run, so all three are refused at their
     * first attestation; one is fenced (the budget), two keep running refused. The approver chooses "pin": the platform
     * their evidence showed is pinned with the approver's name, the two are attested again by the monitor and admitted,
     * and the fenced one is admitted on its readmit. Nothing but the one fence stopped a CVM.
     */
    @Test
    void aPlatformChangeIsResolvedByPinningThePlatformTheRefusedInstancesShowed() throws Exception {
        JsonNode refused = await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200)).until(() -> set("admit-pin"),
                s -> count(s, "fenced") + count(s, "refused") == 3);
        assertThat(count(refused, "fenced")).isEqualTo(1);
        assertThat(setCondition(refused, "AttestationRefused").get("reason").asText()).contains("is none of the set's platforms");
        Task decision = await().atMost(Duration.ofSeconds(30)).until(() -> tasks.createTaskQuery()
                .processDefinitionKey("decide-attestation-refusals").processInstanceBusinessKey("admit-pin").singleResult(), t -> t != null);
        assertThat(String.valueOf(tasks.getVariable(decision.getId(), "refusedInstances"))).contains("its platform: MRTD ");
        assertThat(String.valueOf(tasks.getVariable(decision.getId(), "pinnedPlatforms"))).contains("MRTD " + "a".repeat(96));

        ResponseEntity<String> done = new RolloutDriver(http, tasks, history, "admit-pin").completeTask(decision.getId(),
                Map.of("decision", Map.of("value", "pin", "type", "String")));
        assertThat(done.getStatusCode().is2xxSuccessful()).as(done.getBody()).isTrue();
        JsonNode pinned = await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).until(() -> set("admit-pin"),
                s -> count(s, "refused") == 0 && s.get("readyReplicas").asInt() == 2);
        System.out.println("admit-pin after the pin: " + pinned.get("attestationPolicy").asText());
        assertThat(pinned.get("attestationPolicy").asText()).contains("1 more pinned by approvers after refusals");
        int fencedOrdinal = -1;
        for (JsonNode instance : pinned.get("instances")) {
            if (instance.hasNonNull("fenced")) {
                fencedOrdinal = instance.get("ordinal").asInt();
            } else {
                assertThat(instance.path("attested").asBoolean(false)).as(instance.get("name").asText() + " admitted").isTrue();
            }
        }
        ResponseEntity<String> readmit = admin().postForEntity("/api/replica-sets/admit-pin/instances/" + fencedOrdinal + "/readmit",
                json(Map.of("reason", "the platform is pinned now")), String.class);
        assertThat(readmit.getStatusCode()).as(readmit.getBody()).isEqualTo(HttpStatus.CREATED);
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                .until(() -> set("admit-pin").get("readyReplicas").asInt() == 3);
    }

    /**
     * A compose applied behind our back to every CVM of admit-drift through the Phala API (the call Terraform's provider
     * and the SDK's updateDockerCompose make): each restarts with it and is refused at its re-attestation, one fenced
     * (the budget), two kept running; the set is Drifted with the diff on each refused instance, and the approver's
     * "adopt" makes the compose they run the set's revision: the two are admitted, the fenced one on its readmit.
     */
    @Test
    void aComposeAppliedBehindOurBackToEveryCvmDriftsWithinTheBudgetAndIsAdoptedAsARevision() throws Exception {
        SimulatorView simulator = new SimulatorView(http);
        for (int ordinal = 0; ordinal < 3; ordinal++) {
            awaitAdmitted("admit-drift", ordinal);
        }
        long before = simulator.lastEventSeq();
        String theirs = "services:\n  web:\n    image: nginxdemos/hello:0.4\n";
        HttpHeaders yaml = new HttpHeaders();
        yaml.set("X-API-Key", "test-key");
        yaml.set("Content-Type", "text/yaml");
        for (int ordinal = 0; ordinal < 3; ordinal++) {
            ResponseEntity<String> patched = http.exchange("/simulator/api/v1/cvms/admit-drift-" + ordinal + "/docker-compose",
                    HttpMethod.PATCH, new HttpEntity<>(theirs, yaml), String.class);
            assertThat(patched.getStatusCode().is2xxSuccessful()).as(patched.getBody()).isTrue();
        }
        JsonNode drifted = await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).until(() -> set("admit-drift"),
                s -> count(s, "fenced") + count(s, "refused") == 3 && setCondition(s, "Drifted") != null);
        // each CVM's update takes it down a moment: one fenced while another is still updating would exceed the budget,
        // so it is none or one, as the machine's speed has it, never more
        assertThat(count(drifted, "fenced")).as("fenced: at most the budget's one").isLessThanOrEqualTo(1);
        System.out.println("admit-drift: " + setCondition(drifted, "Drifted").get("reason").asText());
        for (JsonNode instance : drifted.get("instances")) {
            if (instance.hasNonNull("refused")) {
                assertThat(instance.get("drift").asText()).contains("-    image: nginxdemos/hello:0.3").contains("+    image: nginxdemos/hello:0.4");
            }
        }
        Task decision = await().atMost(Duration.ofSeconds(30)).until(() -> tasks.createTaskQuery()
                .processDefinitionKey("decide-attestation-refusals").processInstanceBusinessKey("admit-drift").singleResult(), t -> t != null);
        assertThat(String.valueOf(tasks.getVariable(decision.getId(), "driftDiff"))).contains("+    image: nginxdemos/hello:0.4");
        long fencedAtFirst = count(drifted, "fenced");
        await().atMost(Duration.ofSeconds(30)).until(() -> stoppedSince(simulator, before, "admit-drift-").size() == fencedAtFirst);

        ResponseEntity<String> done = new RolloutDriver(http, tasks, history, "admit-drift").completeTask(decision.getId(),
                Map.of("decision", Map.of("value", "adopt", "type", "String")));
        assertThat(done.getStatusCode().is2xxSuccessful()).as(done.getBody()).isTrue();
        JsonNode adopted = await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).until(() -> set("admit-drift"),
                s -> count(s, "refused") == 0 && s.get("readyReplicas").asInt() == 3 - fencedAtFirst);
        assertThat(setCondition(adopted, "Drifted")).isNull();
        JsonNode revisions = JSON.readTree(admin().getForObject("/api/replica-sets/admit-drift/revisions", String.class));
        System.out.println("admit-drift revisions after the adopt: " + revisions);
        assertThat(revisions.toString()).contains("adopted: the compose");
        int current = adopted.get("currentRevision").asInt();
        assertThat(current).isGreaterThan(1);
        assertThat(admin().getForObject("/api/replica-sets/admit-drift/revisions/" + current, String.class))
                .contains("nginxdemos/hello:0.4").contains("\"createdBy\":\"admin\"");
        for (JsonNode instance : adopted.get("instances")) {
            if (instance.hasNonNull("fenced")) {
                ResponseEntity<String> readmit = admin().postForEntity("/api/replica-sets/admit-drift/instances/"
                        + instance.get("ordinal").asInt() + "/readmit", json(Map.of("reason", "its compose is the set's revision now")), String.class);
                assertThat(readmit.getStatusCode()).as(readmit.getBody()).isEqualTo(HttpStatus.CREATED);
            }
        }
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                .until(() -> set("admit-drift").get("readyReplicas").asInt() == 3);
        assertThat(stoppedSince(simulator, before, "admit-drift-")).as("only the budget's fence stopped a CVM").hasSize((int) fencedAtFirst);
    }

    /**
     * The same change behind our back on admit-rollback, and the approver's "rollback": a rollout of the drifted, refused
     * instances alone, back to revision 1. When none was fenced (the machine's speed decides) it asks for its approval
     * and admits each again on revision 1, with no new revision; when the budget's one was fenced, no instance can be
     * taken down within the budget, the rollout's plan refuses, and the decision asks again saying so.
     */
    @Test
    void aComposeAppliedBehindOurBackIsRolledBackToTheRecordedRevisionOrTheDecisionSaysWhyNot() throws Exception {
        for (int ordinal = 0; ordinal < 3; ordinal++) {
            awaitAdmitted("admit-rollback", ordinal);
        }
        String recorded = new SimulatorView(http).composeHash("admit-rollback-0");
        HttpHeaders yaml = new HttpHeaders();
        yaml.set("X-API-Key", "test-key");
        yaml.set("Content-Type", "text/yaml");
        for (int ordinal = 0; ordinal < 3; ordinal++) {
            ResponseEntity<String> patched = http.exchange("/simulator/api/v1/cvms/admit-rollback-" + ordinal + "/docker-compose",
                    HttpMethod.PATCH, new HttpEntity<>("services:\n  web:\n    image: nginxdemos/hello:0.4\n", yaml), String.class);
            assertThat(patched.getStatusCode().is2xxSuccessful()).as(patched.getBody()).isTrue();
        }
        JsonNode drifted = await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).until(() -> set("admit-rollback"),
                s -> count(s, "fenced") + count(s, "refused") == 3 && setCondition(s, "Drifted") != null);
        java.util.Set<Integer> refused = new java.util.TreeSet<>();
        drifted.get("instances").forEach(i -> {
            if (i.hasNonNull("refused")) {
                refused.add(i.get("ordinal").asInt());
            }
        });
        long fenced = count(drifted, "fenced");
        Task decision = await().atMost(Duration.ofSeconds(30)).until(() -> tasks.createTaskQuery()
                .processDefinitionKey("decide-attestation-refusals").processInstanceBusinessKey("admit-rollback").singleResult(), t -> t != null);

        RolloutDriver driver = new RolloutDriver(http, tasks, history, "admit-rollback");
        ResponseEntity<String> done = driver.completeTask(decision.getId(), Map.of("decision", Map.of("value", "rollback", "type", "String")));
        assertThat(done.getStatusCode().is2xxSuccessful()).as(done.getBody()).isTrue();
        String rollout = await().atMost(Duration.ofSeconds(30)).until(() -> history.createHistoricProcessInstanceQuery()
                .processDefinitionKey("rollout").processInstanceBusinessKey("admit-rollback").singleResult(), p -> p != null).getId();
        assertThat(history.createHistoricVariableInstanceQuery().processInstanceId(rollout).variableName("rollbackToRevision")
                .singleResult().getValue()).isEqualTo(1);
        assertThat(history.createHistoricVariableInstanceQuery().processInstanceId(rollout).variableName("targetOrdinals")
                .singleResult().getValue()).isEqualTo(refused.stream().map(String::valueOf).collect(java.util.stream.Collectors.joining(",")));
        System.out.println("admit-rollback: " + fenced + " fenced, refused " + refused);
        if (fenced == 0) {
            driver.approve(rollout);
            driver.awaitEnded(rollout, "EndEvent_RolloutCompleted");
            JsonNode after = await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).until(() -> set("admit-rollback"),
                    s -> count(s, "refused") == 0 && attestedCount(s) == 3);
            after.get("instances").forEach(i -> assertThat(i.get("composeHash").asText()).as("back on revision 1").isEqualTo(recorded));
            await().atMost(Duration.ofSeconds(60)).until(() -> history.createHistoricProcessInstanceQuery().processInstanceId(decision.getProcessInstanceId())
                    .finished().count() == 1);
        } else {
            driver.awaitEnded(rollout, "EndEvent_RolloutRefused");
            Task again = await().atMost(Duration.ofSeconds(60)).until(() -> tasks.createTaskQuery()
                    .processDefinitionKey("decide-attestation-refusals").processInstanceBusinessKey("admit-rollback").singleResult(),
                    t -> t != null && !t.getId().equals(decision.getId()));
            assertThat(String.valueOf(tasks.getVariable(again.getId(), "rollbackOutcome"))).as("asked again, saying why")
                    .contains("EndEvent_RolloutRefused").contains("no instance can be taken down");
            assertThat(driver.completeTask(again.getId(), Map.of("decision", Map.of("value", "adopt", "type", "String")))
                    .getStatusCode().is2xxSuccessful()).isTrue();
            // the adopt runs on the job executor after the task's transaction: wait for the decision to end
            await().atMost(Duration.ofSeconds(60)).until(() -> history.createHistoricProcessInstanceQuery()
                    .processInstanceId(decision.getProcessInstanceId()).finished().count() == 1);
        }
        assertThat(JSON.readTree(admin().getForObject("/api/replica-sets/admit-rollback/revisions", String.class)).size())
                .as("a rollback adopts nothing; an adopt after a refused one records the drifted compose").isEqualTo(fenced == 0 ? 1 : 2);
    }

    private static long attestedCount(JsonNode set) {
        long n = 0;
        for (JsonNode instance : set.get("instances")) {
            n += instance.path("attested").asBoolean(false) ? 1 : 0;
        }
        return n;
    }

    // --- helpers

    private static long count(JsonNode set, String field) {
        long n = 0;
        for (JsonNode instance : set.get("instances")) {
            n += instance.hasNonNull(field) ? 1 : 0;
        }
        return n;
    }

    private static JsonNode setCondition(JsonNode set, String type) {
        for (JsonNode condition : set.path("conditions")) {
            if (type.equals(condition.path("type").asText())) {
                return condition;
            }
        }
        return null;
    }

    /** The CVMs of admit-all that went to "stopped" after the event {@code seq}. */
    private static java.util.Set<String> stoppedSince(SimulatorView simulator, long seq) throws Exception {
        return stoppedSince(simulator, seq, "admit-all-");
    }

    private static java.util.Set<String> stoppedSince(SimulatorView simulator, long seq, String prefix) throws Exception {
        java.util.Set<String> stopped = new java.util.TreeSet<>();
        for (JsonNode e : SimulatorView.of(simulator.eventsSince(seq), prefix)) {
            if ("stopped".equals(e.get("to").asText())) {
                stopped.add(e.get("cvm").asText());
            }
        }
        return stopped;
    }

    /** The slot's instance attested, healthy, and its verdict older than the boot marker's tolerance. */
    private JsonNode awaitAdmitted(String set, int ordinal) {
        return await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).until(() -> instance(set, ordinal),
                i -> i.path("attested").asBoolean(false) && i.path("healthy").asBoolean(false) && i.hasNonNull("attestedAt")
                        && Instant.parse(i.get("attestedAt").asText()).isBefore(Instant.now().minusSeconds(3)));
    }

    /** A restart through the simulator's Phala API, nobody asking the orchestrator, too quick to be seen in a round. */
    private Instant restartBehindOurBack(String cvm, JsonNode before) throws Exception {
        http.exchange("/simulator/_admin/timings", HttpMethod.PUT, json(Map.of("restartMs", 5)), String.class);
        Instant at = Instant.now();
        HttpHeaders key = new HttpHeaders();
        key.set("X-API-Key", "test-key");
        key.set("Content-Type", "application/json");
        assertThat(http.exchange("/simulator/api/v1/cvms/" + cvm + "/restart", HttpMethod.POST,
                new HttpEntity<>("{\"force\": false}", key), String.class).getStatusCode().is2xxSuccessful()).isTrue();
        await().atMost(Duration.ofSeconds(30)).until(() -> "running".equals(cvm(cvm).get("status").asText()));
        assertThat(cvm(cvm).get("instance_id").asText()).isEqualTo(before.get("instanceId").asText());
        return at;
    }

    private void tamper(String cvm, String how) {
        assertThat(http.postForEntity("/simulator/_admin/cvms/" + cvm + "/evidence", json(Map.of("tamper", how)), String.class)
                .getStatusCode().is2xxSuccessful()).isTrue();
    }

    private HistoricProcessInstance admissionOf(String businessKey, Instant after) {
        return await().atMost(Duration.ofSeconds(30)).until(() -> finishedAdmission(businessKey, after), p -> p != null);
    }

    private HistoricProcessInstance finishedAdmission(String businessKey, Instant after) {
        return history.createHistoricProcessInstanceQuery().processDefinitionKey("admit-instance")
                .processInstanceBusinessKey(businessKey).startedAfter(Date.from(after)).finished().list().stream()
                .findFirst().orElse(null);
    }

    private String variable(HistoricProcessInstance pi, String name) {
        HistoricVariableInstance v = history.createHistoricVariableInstanceQuery().processInstanceId(pi.getId())
                .variableName(name).singleResult();
        return v == null ? null : String.valueOf(v.getValue());
    }

    private List<HistoricProcessInstance> heals(String businessKey) {
        return history.createHistoricProcessInstanceQuery().processDefinitionKey("heal").processInstanceBusinessKey(businessKey).list();
    }

    private JsonNode cvm(String name) throws Exception {
        return new SimulatorView(http).cvm(name);
    }

    private JsonNode set(String name) throws Exception {
        ResponseEntity<String> response = admin().getForEntity("/api/replica-sets/" + name, String.class);
        assertThat(response.getStatusCode()).isEqualTo(HttpStatus.OK);
        return JSON.readTree(response.getBody());
    }

    private JsonNode instance(String set, int ordinal) throws Exception {
        return set(set).get("instances").get(ordinal);
    }

    private JsonNode health(String set) throws Exception {
        return JSON.readTree(admin().getForObject("/api/replica-sets/" + set + "/health", String.class));
    }

    private TestRestTemplate admin() {
        return http.withBasicAuth("admin", "admin");
    }

    private static HttpEntity<Object> json(Object body) {
        return RolloutDriver.json(body);
    }
}
