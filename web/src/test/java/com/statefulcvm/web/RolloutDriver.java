package com.statefulcvm.web;

import com.statefulcvm.delegates.procedure.RolloutVariables;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.camunda.bpm.engine.HistoryService;
import org.camunda.bpm.engine.TaskService;
import org.camunda.bpm.engine.history.HistoricProcessInstance;
import org.camunda.bpm.engine.task.Task;
import org.springframework.boot.test.web.client.TestRestTemplate;
import org.springframework.http.HttpEntity;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Drives rollouts as an operator would, over the application's HTTP APIs; shared by the end-to-end tests. */
public final class RolloutDriver {

    public static final ObjectMapper JSON = new ObjectMapper();

    private final TestRestTemplate http;
    private final TaskService tasks;
    private final HistoryService history;
    private final String set;

    public RolloutDriver(TestRestTemplate http, TaskService tasks, HistoryService history, String set) {
        this.http = http;
        this.tasks = tasks;
        this.history = history;
        this.set = set;
    }

    public TestRestTemplate admin() {
        return http.withBasicAuth("admin", "admin");
    }

    public String startRollout(String compose) throws Exception {
        return startRollout(compose, null);
    }

    /** With a per-rollout policy override (null for none). */
    public String startRollout(String compose, Map<String, Object> updatePolicy) throws Exception {
        Map<String, Object> body = new java.util.HashMap<>(Map.of("dockerCompose", compose));
        if (updatePolicy != null) {
            body.put("updatePolicy", updatePolicy);
        }
        ResponseEntity<String> created = admin().postForEntity("/api/replica-sets/" + set + "/rollouts",
                json(body), String.class);
        assertThat(created.getStatusCode()).isEqualTo(HttpStatus.CREATED);
        return JSON.readTree(created.getBody()).get("processInstanceId").asText();
    }

    /** Completes the approval before the rollout, through the engine's REST API as Tasklist does. */
    public void approve(String pid) {
        Task approval = awaitTask(pid, "UserTask_ApproveRollout");
        ResponseEntity<String> done = completeTask(approval.getId(), Map.of("approved", Map.of("value", true, "type", "Boolean")));
        assertThat(done.getStatusCode()).isEqualTo(HttpStatus.NO_CONTENT);
    }

    /**
     * Completes the approval before a rollout whose override removes an approval the fleet file asks for
     * ({@code approveLeader: false}): the approver approves and accepts the override (issue 32).
     */
    public void approveAcceptingOverrides(String pid) {
        Task approval = awaitTask(pid, "UserTask_ApproveRollout");
        ResponseEntity<String> done = completeTask(approval.getId(), Map.of("approved", Map.of("value", true, "type", "Boolean"),
                RolloutVariables.ACCEPT_OVERRIDES, Map.of("value", true, "type", "Boolean")));
        assertThat(done.getStatusCode()).as(done.getBody()).isEqualTo(HttpStatus.NO_CONTENT);
    }

    public Task awaitTask(String pid, String taskDefinitionKey) {
        return awaitTask(pid, taskDefinitionKey, Duration.ofSeconds(60));
    }

    public Task awaitTask(String pid, String taskDefinitionKey, Duration atMost) {
        return await().atMost(atMost).until(() -> tasks.createTaskQuery().processInstanceId(pid)
                .taskDefinitionKey(taskDefinitionKey).singleResult(), t -> t != null);
    }

    /** The task's form variables as Tasklist loads them (the engine's REST API), by name. */
    public Map<String, String> formVariables(String taskId) throws Exception {
        JsonNode variables = JSON.readTree(admin().getForObject("/engine-rest/task/" + taskId + "/form-variables", String.class));
        Map<String, String> values = new java.util.HashMap<>();
        variables.fields().forEachRemaining(e -> values.put(e.getKey(), e.getValue().path("value").asText()));
        return values;
    }

    /** Completes the leader's approval ("Approve the leader's step: ..."), through the engine's REST API. */
    public void approveLeader(String taskId) {
        ResponseEntity<String> done = completeTask(taskId, Map.of("approved", Map.of("value", true, "type", "Boolean")));
        assertThat(done.getStatusCode()).isEqualTo(HttpStatus.NO_CONTENT);
    }

    public ResponseEntity<String> completeTask(String taskId, Map<String, Object> variables) {
        return admin().postForEntity("/engine-rest/task/" + taskId + "/complete", json(Map.of("variables", variables)), String.class);
    }

    public void awaitEnded(String pid, String endActivity) {
        HistoricProcessInstance ended = await().atMost(Duration.ofSeconds(90)).until(() -> history.createHistoricProcessInstanceQuery()
                .processInstanceId(pid).finished().singleResult(), p -> p != null);
        assertThat(ended.getEndActivityId()).isEqualTo(endActivity);
    }

    public JsonNode readSet() throws Exception {
        ResponseEntity<String> response = admin().getForEntity("/api/replica-sets/" + set, String.class);
        assertThat(response.getStatusCode()).isEqualTo(HttpStatus.OK);
        return JSON.readTree(response.getBody());
    }

    public void awaitAllRunning(int replicas) {
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            int running = 0;
            for (JsonNode i : readSet().get("instances")) {
                running += "running".equals(i.path("status").asText()) ? 1 : 0;
            }
            return running == replicas;
        });
    }

    public static HttpEntity<Object> json(Object body) {
        HttpHeaders headers = new HttpHeaders();
        headers.setContentType(MediaType.APPLICATION_JSON);
        return new HttpEntity<>(body, headers);
    }
}
