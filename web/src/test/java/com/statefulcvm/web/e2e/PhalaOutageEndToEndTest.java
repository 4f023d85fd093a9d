package com.statefulcvm.web.e2e;

import com.statefulcvm.web.SimulatorView;
import com.statefulcvm.web.RolloutDriver;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.camunda.bpm.engine.HistoryService;
import org.camunda.bpm.engine.ManagementService;
import org.camunda.bpm.engine.RuntimeService;
import org.camunda.bpm.engine.TaskService;
import org.camunda.bpm.engine.runtime.Job;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.client.TestRestTemplate;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Phala Cloud down for longer than a rollout's progress deadline, under onFailure ROLLBACK: the rollout pauses (its
 * step's job waits for the circuit's next try, says so in Cockpit, keeps its retries, no incident), the fleet page and
 * the API say Phala is unreachable, the deadline is put off by the time it waited, and when Phala answers again the
 * rollout goes on and completes: no rollback (which would need Phala too) was started, no incident was raised. And
 * however many viewers read a set's detail at once, Phala is asked once per {@code orchestrator.fleet-reads.max-age}.
 */
class PhalaOutageEndToEndTest extends PhalaFaultsEndToEnd {

    private static final String SET = "once";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration OUTAGE = Duration.ofSeconds(20);
    private static final int DEADLINE_SECONDS = 8;

    @Autowired
    TestRestTemplate http;
    @Autowired
    TaskService tasks;
    @Autowired
    HistoryService history;
    @Autowired
    RuntimeService runtime;
    @Autowired
    ManagementService management;
    @Autowired
    MeterRegistry meters;

    @Test
    void aRolloutPausesWhilePhalaIsDownLongerThanItsDeadlineAndResumesWithoutAnIncidentOrARollback() throws Exception {
        RolloutDriver driver = new RolloutDriver(http, tasks, history, SET);
        awaitAllRunningAtPhala(http, SET);
        SimulatorView simulator = new SimulatorView(http);
        long since = simulator.lastEventSeq();
        ResponseEntity<String> created = driver.admin().postForEntity("/api/replica-sets/" + SET + "/rollouts", RolloutDriver.json(Map.of(
                "dockerCompose", "services:\n  web:\n    image: nginxdemos/hello:outage\n",
                "updatePolicy", Map.of("onFailure", "ROLLBACK", "progressDeadlineSeconds", DEADLINE_SECONDS))), String.class);
        assertThat(created.getStatusCode()).as(created.getBody()).isEqualTo(HttpStatus.CREATED);
        String pid = JSON.readTree(created.getBody()).get("processInstanceId").asText();

        // the first slot's update has begun: Phala goes down
        await().atMost(Duration.ofSeconds(60)).until(() -> simulator.eventsSince(since).stream()
                .anyMatch(e -> "updating".equals(e.get("to").asText())));
        ResponseEntity<String> fault = http.postForEntity("/simulator/_admin/faults", RolloutDriver.json(Map.of(
                "method", "*", "pathPattern", "/**", "status", 503, "times", 1_000_000, "retryAfterSeconds", 0)), String.class);
        assertThat(fault.getStatusCode().is2xxSuccessful()).as(fault.getBody()).isTrue();
        Instant down = Instant.now();

        Job paused = await().atMost(Duration.ofSeconds(30)).until(() -> pausedJob(pid), j -> j != null);
        assertThat(paused.getExceptionMessage()).startsWith("Phala Cloud unreachable: waiting at '");
        assertThat(paused.getRetries()).as("a pause uses no retry").isGreaterThanOrEqualTo(3);
        assertThat(runtime.getVariable(pid, "phalaCloudUnreachable")).asString().startsWith("Phala Cloud unreachable: waiting");
        JsonNode status = JSON.readTree(driver.admin().getForObject("/api/phala-cloud", String.class));
        assertThat(status.get("reachable").asBoolean()).isFalse();
        assertThat(status.get("condition").asText()).startsWith("Phala Cloud unreachable since");
        assertThat(status.get("pausedSteps").asInt()).isPositive();

        // down for longer than the deadline
        await().pollDelay(Duration.between(Instant.now(), down.plus(OUTAGE))).atMost(OUTAGE.plusSeconds(5)).until(() -> true);
        assertThat(runtime.createIncidentQuery().count()).as("no incident while Phala is down").isZero();
        assertThat(history.createHistoricProcessInstanceQuery().processInstanceId(pid).finished().count()).isZero();
        http.exchange("/simulator/_admin/faults", HttpMethod.DELETE, null, String.class);

        await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(200))
                .until(() -> history.createHistoricProcessInstanceQuery().processInstanceId(pid).finished().count() == 1);
        assertThat(history.createHistoricActivityInstanceQuery().processInstanceId(pid).activityId("EndEvent_RolloutCompleted")
                .finished().count()).as("completed").isEqualTo(1);
        assertThat(history.createHistoricActivityInstanceQuery().processInstanceId(pid).activityId("CallActivity_RollBack").count())
                .as("no rollback").isZero();
        assertThat(history.createHistoricActivityInstanceQuery().processInstanceId(pid).activityId("UserTask_RolloutHalted").count())
                .as("no halt").isZero();
        assertThat(history.createHistoricIncidentQuery().count()).as("no incident, ever").isZero();
        assertThat(runtime.createVariableInstanceQuery().variableName("phalaCloudUnreachable").count()).isZero();
        assertThat(JSON.readTree(driver.admin().getForObject("/api/phala-cloud", String.class)).get("reachable").asBoolean()).isTrue();
    }

    @Test
    void manyViewersOfASetCostOnePhalaReadPerMaxAge() throws Exception {
        RolloutDriver driver = new RolloutDriver(http, tasks, history, SET);
        awaitAllRunningAtPhala(http, SET);
        double before = listCalls();
        List<CompletableFuture<ResponseEntity<String>>> viewers = new ArrayList<>();
        IntStream.range(0, 20).forEach(i -> viewers.add(CompletableFuture.supplyAsync(
                () -> driver.admin().getForEntity("/api/replica-sets/" + SET, String.class))));
        for (CompletableFuture<ResponseEntity<String>> viewer : viewers) {
            ResponseEntity<String> answer = viewer.get();
            assertThat(answer.getStatusCode()).isEqualTo(HttpStatus.OK);
            assertThat(JSON.readTree(answer.getBody()).get("instances")).hasSize(3);
        }
        for (int i = 0; i < 10; i++) {
            assertThat(driver.admin().getForEntity("/api/replica-sets/" + SET, String.class).getStatusCode()).isEqualTo(HttpStatus.OK);
        }
        assertThat(listCalls() - before).as("Phala reads of the set for 30 views").isLessThanOrEqualTo(1);
    }

    private double listCalls() {
        return meters.find("orchestrator.phala.calls").tag("operation", "listAppCvms").timers().stream().mapToLong(Timer::count).sum();
    }

    private Job pausedJob(String pid) {
        List<String> instances = new ArrayList<>(List.of(pid));
        runtime.createProcessInstanceQuery().superProcessInstanceId(pid).list().forEach(p -> instances.add(p.getId()));
        return management.createJobQuery().withException().list().stream()
                .filter(j -> instances.contains(j.getProcessInstanceId()))
                .filter(j -> j.getExceptionMessage() != null && j.getExceptionMessage().startsWith("Phala Cloud unreachable"))
                .findFirst().orElse(null);
    }
}
