package com.statefulcvm.web.e2e;

import com.statefulcvm.web.SimulatorView;
import com.statefulcvm.web.RolloutDriver;
import com.fasterxml.jackson.databind.JsonNode;
import org.camunda.bpm.engine.HistoryService;
import org.camunda.bpm.engine.history.HistoricActivityInstance;
import org.camunda.bpm.engine.history.HistoricProcessInstance;
import org.camunda.bpm.engine.history.HistoricVariableInstance;
import org.springframework.boot.test.web.client.TestRestTemplate;

import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

import static org.awaitility.Awaitility.await;

/**
 * What the workload end-to-end tests read besides the simulator's journal: the rollout's own history in the engine
 * (which drain and rejoin hooks ran for which slot, and which of their steps passed when), and the journal's
 * restarts.
 */
public final class WorkloadRollouts {

    private final HistoryService history;
    private final TestRestTemplate http;

    public WorkloadRollouts(HistoryService history, TestRestTemplate http) {
        this.history = history;
        this.http = http;
    }

    /** Waits (generously: real processes restart) until the rollout has ended; answers its end activity. */
    public HistoricProcessInstance awaitEnded(String pid, Duration atMost) {
        return await().atMost(atMost).pollInterval(Duration.ofMillis(250))
                .until(() -> history.createHistoricProcessInstanceQuery().processInstanceId(pid).finished().singleResult(),
                        p -> p != null);
    }

    /** {@code GET /api/rollouts/{pid}}: the rollout report (stage, steps, blockers). */
    JsonNode report(String pid) throws Exception {
        return RolloutDriver.JSON.readTree(http.withBasicAuth("admin", "admin").getForObject("/api/rollouts/" + pid, String.class));
    }

    /** The hook procedures ({@code drain-etcd}, {@code rejoin-patroni} ...) the rollout ran for {@code slot}, oldest first. */
    List<HistoricProcessInstance> hookRuns(String rolloutPid, String processKey, String slot) {
        return history.createHistoricProcessInstanceQuery().rootProcessInstanceId(rolloutPid)
                .processDefinitionKey(processKey).variableValueEquals("slot", slot).list().stream()
                .sorted(Comparator.comparing(HistoricProcessInstance::getStartTime)).toList();
    }

    /** The activity's finished passes in one process instance, in order. */
    List<HistoricActivityInstance> passed(String processInstanceId, String activityId) {
        return history.createHistoricActivityInstanceQuery().processInstanceId(processInstanceId).activityId(activityId)
                .finished().list().stream().sorted(Comparator.comparing(HistoricActivityInstance::getEndTime)).toList();
    }

    /** The first finished pass of the activity in any of the runs, if any. */
    Optional<HistoricActivityInstance> firstPassed(List<HistoricProcessInstance> runs, String activityId) {
        return runs.stream().flatMap(run -> passed(run.getId(), activityId).stream())
                .min(Comparator.comparing(HistoricActivityInstance::getEndTime));
    }

    /** Every value a variable took in one process instance (history keeps the last value of each variable instance). */
    List<Object> values(String processInstanceId, String variable) {
        return history.createHistoricVariableInstanceQuery().processInstanceId(processInstanceId).variableName(variable)
                .list().stream().map(HistoricVariableInstance::getValue).toList();
    }

    /** Every {@code stage} the rollout and the procedures it called hold or held: what the steps were waiting for. */
    String stages(String rolloutPid) {
        List<String> ids = new ArrayList<>(history.createHistoricProcessInstanceQuery().rootProcessInstanceId(rolloutPid).list()
                .stream().map(HistoricProcessInstance::getId).toList());
        ids.add(rolloutPid);
        return history.createHistoricVariableInstanceQuery().processInstanceIdIn(ids.toArray(String[]::new))
                .variableNameIn("stage", "hookFailure", "haltReason").list().stream()
                .map(v -> v.getProcessDefinitionKey() + " " + v.getName() + "=" + v.getValue())
                .distinct().collect(Collectors.joining("\n  ", "  ", ""));
    }

    /** The simulator's backend commands run for a CVM so far, as "action:outcome" ("start:ok"), oldest first. */
    List<String> backendResults(String cvm) throws Exception {
        JsonNode backend = RolloutDriver.JSON.readTree(http.getForObject("/simulator/_admin/backends/" + cvm, String.class));
        List<String> results = new ArrayList<>();
        backend.path("results").forEach(r -> results.add(r.path("action").asText() + ":" + r.path("outcome").asText()));
        return results;
    }

    /**
     * Waits until the CVM's backend commands are exactly these: the simulator runs a backend's command, and records its
     * result, a moment after the CVM is seen running.
     */
    void awaitBackendResults(String cvm, String... expected) {
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                org.assertj.core.api.Assertions.assertThat(backendResults(cvm)).as("backend commands of " + cvm).containsExactly(expected));
    }

    /**
     * Waits until the CVM's latest backend command ended with this result ("stop:ok"): the simulator reports a CVM
     * stopped before its process is, and members of a workload talk to each other directly, not through the gateway.
     */
    void awaitLastBackendResult(String cvm, String expected) {
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                org.assertj.core.api.Assertions.assertThat(backendResults(cvm)).as("backend commands of " + cvm).last().isEqualTo(expected));
    }

    // --- the simulator's journal (events as SimulatorView reads them) ---

    /** The CVMs in the order in which each first left "running" for a restart. */
    static List<String> restartOrder(List<JsonNode> events) {
        List<String> order = new ArrayList<>();
        for (JsonNode e : events) {
            String cvm = e.get("cvm").asText();
            if ("restarting".equals(e.get("to").asText()) && !order.contains(cvm)) {
                order.add(cvm);
            }
        }
        return order;
    }

    /** How many times the CVM entered {@code to}. */
    static long transitions(List<JsonNode> events, String cvm, String to) {
        return events.stream().filter(e -> cvm.equals(e.get("cvm").asText()) && to.equals(e.get("to").asText())).count();
    }

    /** When the CVM first entered {@code to}. */
    static Instant firstTransition(List<JsonNode> events, String cvm, String to) {
        return events.stream().filter(e -> cvm.equals(e.get("cvm").asText()) && to.equals(e.get("to").asText()))
                .map(e -> Instant.parse(e.get("at").asText())).findFirst()
                .orElseThrow(() -> new AssertionError(cvm + " never entered " + to + " in " + events));
    }

    /** {@code http://127.0.0.1:<port>/simulator/gateway/<instanceId>-<cvmPort>}: a CVM's gateway route. */
    static URI gatewayRoute(int serverPort, String instanceId, int cvmPort) {
        return URI.create("http://127.0.0.1:" + serverPort + "/simulator/gateway/" + instanceId + "-" + cvmPort);
    }
}
