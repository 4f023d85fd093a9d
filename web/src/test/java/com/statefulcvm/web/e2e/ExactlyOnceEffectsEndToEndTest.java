package com.statefulcvm.web.e2e;

import com.statefulcvm.web.SimulatorView;
import com.statefulcvm.web.RolloutDriver;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.statefulcvm.fleet.effects.EffectIntent;
import com.statefulcvm.fleet.effects.EffectIntentRegistry;
import com.statefulcvm.fleet.effects.EffectState;
import org.camunda.bpm.engine.HistoryService;
import org.camunda.bpm.engine.TaskService;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.client.TestRestTemplate;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The node dies after Phala accepted an effect and before the step's transaction commits (the job's work is rolled
 * back, as after a kill -9 or a database restart): the engine runs the job again, about 10 s later, when the CVM has
 * long settled. The restart of a heal and the env update of an env rollout must each reach every CVM once: the
 * simulator's journal shows one restart, one update per CVM. Before the intents (the step remembered in a process
 * variable that it asked, rolled back with the rest) each was made twice.
 */
class ExactlyOnceEffectsEndToEndTest extends PhalaFaultsEndToEnd {

    private static final String SET = "once";
    private static final ObjectMapper JSON = new ObjectMapper();

    @Autowired
    TestRestTemplate http;
    @Autowired
    TaskService tasks;
    @Autowired
    HistoryService history;
    @Autowired
    EffectIntentRegistry intents;

    @Test
    void aHealWhoseNodeDiedAfterPhalaAcceptedTheRestartRestartsTheCvmOnce() throws Exception {
        RolloutDriver driver = new RolloutDriver(http, tasks, history, SET);
        awaitAllRunningAtPhala(http, SET);
        SimulatorView simulator = new SimulatorView(http);
        long since = simulator.lastEventSeq();
        int died = DIED.get();
        DIE_AFTER.set("restart");

        ResponseEntity<String> started = driver.admin().postForEntity("/api/replica-sets/" + SET + "/instances/1/heal",
                RolloutDriver.json(Map.of("reason", "exactly-once test")), String.class);
        assertThat(started.getStatusCode()).as(started.getBody()).isEqualTo(HttpStatus.CREATED);
        String pid = JSON.readTree(started.getBody()).get("processInstanceId").asText();
        awaitEnded(pid);

        assertThat(DIED.get()).as("the node died once after the restart call").isEqualTo(died + 1);
        List<JsonNode> events = SimulatorView.of(simulator.eventsSince(since), SET + "-1");
        long restarts = events.stream().filter(e -> "restarting".equals(e.get("to").asText())).count();
        assertThat(restarts).as("restarts of once-1 in the journal: " + events).isEqualTo(1);
        List<EffectIntent> recorded = intents.ofProcedure(pid);
        assertThat(recorded).as("the heal's intents").singleElement().satisfies(i -> {
            assertThat(i.state()).isEqualTo(EffectState.APPLIED);
            assertThat(i.attempts()).isEqualTo(1);
            assertThat(i.outcome()).startsWith("seen at Phala");
        });
    }

    @Test
    void anEnvRolloutWhoseNodeDiedAfterPhalaAcceptedAnEnvUpdateUpdatesEachCvmOnce() throws Exception {
        RolloutDriver driver = new RolloutDriver(http, tasks, history, SET);
        awaitAllRunningAtPhala(http, SET);
        SimulatorView simulator = new SimulatorView(http);
        long since = simulator.lastEventSeq();
        int died = DIED.get();
        DIE_AFTER.set("updateEnvs");

        ResponseEntity<String> created = driver.admin().postForEntity("/api/replica-sets/" + SET + "/rollouts",
                RolloutDriver.json(Map.of("envs", Map.of("GREETING", "once"), "updatePolicy", Map.of("progressDeadlineSeconds", 300))),
                String.class);
        assertThat(created.getStatusCode()).as(created.getBody()).isEqualTo(HttpStatus.CREATED);
        String pid = JSON.readTree(created.getBody()).get("processInstanceId").asText();
        awaitEnded(pid);

        assertThat(DIED.get()).as("the node died once after an env update call").isEqualTo(died + 1);
        assertThat(history.createHistoricActivityInstanceQuery().processInstanceId(pid).activityId("EndEvent_RolloutCompleted")
                .finished().count()).isEqualTo(1);
        List<JsonNode> events = simulator.eventsSince(since);
        for (int ordinal = 0; ordinal < 3; ordinal++) {
            String cvm = SET + "-" + ordinal;
            long updates = SimulatorView.of(events, cvm).stream().filter(e -> "updating".equals(e.get("to").asText())).count();
            assertThat(updates).as("env updates of " + cvm + ": " + SimulatorView.of(events, cvm)).isEqualTo(1);
        }
    }

    private void awaitEnded(String pid) {
        await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(200))
                .until(() -> history.createHistoricProcessInstanceQuery().processInstanceId(pid).finished().count() == 1);
    }
}
