package com.statefulcvm.web.e2e;

import com.statefulcvm.web.E2eSupport;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.statefulcvm.web.config.ProcedureResources;
import com.statefulcvm.web.engine.ProcedureDeployer;
import org.camunda.bpm.engine.HistoryService;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.RepositoryService;
import org.camunda.bpm.engine.repository.Deployment;
import org.camunda.bpm.engine.repository.ProcessDefinition;
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

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Procedures edited without a rebuild: the processes directory beside the fleet file ({@code orchestrator.processes-dir})
 * holds an edited rollout (the built-in's process id), an edited start form of the scale (the built-in's form id), a
 * decision, and the drain and rejoin procedures of a workload type the jar does not know (redis, docs/examples/hooks).
 * Each is deployed at start beside the built-ins, the edited ones in the built-ins' place; a set of the new type starts
 * and rolls out through its own drain and rejoin; and a procedure deployed from the Modeler stays the latest at the next
 * start (the deployer run again, as a restart runs it), until its file in the directory changes.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.DEFINED_PORT)
@ActiveProfiles({"e2e", "procedures-dir"})
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ProcedureDeploymentTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path BUILT_IN = Path.of("../processes/src/main/resources/processes");
    private static final Path EXAMPLES = Path.of("../docs/examples/hooks");
    static final Path DIR = processesDirectory();
    static final String EDITED_ROLLOUT = "Roll out a new compose to a replica set (edited in config/processes)";
    static final String EDITED_SCALE_LABEL = "Replicas wanted (edited in config/processes)";

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        E2eSupport.onFreePortWithDatabase(registry, "procedures-dir-test");
        registry.add("orchestrator.processes-dir", DIR::toString);
    }

    @Autowired
    RepositoryService repository;
    @Autowired
    HistoryService history;
    @Autowired
    ProcessEngine engine;
    @Autowired
    TestRestTemplate http;

    /** What an operator drops beside the fleet file, before the application starts. */
    private static Path processesDirectory() {
        try {
            Path dir = Files.createTempDirectory("orch-processes-");
            Files.writeString(dir.resolve("rollout.bpmn"), editedRollout());
            String form = Files.readString(BUILT_IN.resolve("start-scale.form"));
            Files.writeString(dir.resolve("start-scale.form"), form.replace("\"Replicas wanted\"", JSON.writeValueAsString(EDITED_SCALE_LABEL)));
            Files.copy(EXAMPLES.resolve("drain-redis.bpmn"), dir.resolve("drain-redis.bpmn"));
            Files.copy(EXAMPLES.resolve("rejoin-redis.bpmn"), dir.resolve("rejoin-redis.bpmn"));
            Files.writeString(dir.resolve("maintenance-window.dmn"), DECISION);
            Files.writeString(dir.resolve("notes.txt"), "not a procedure: left alone");
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String editedRollout() throws IOException {
        String rollout = Files.readString(BUILT_IN.resolve("rollout.bpmn"));
        String edited = rollout.replaceFirst("name=\"Roll out a new compose to a replica set\"", "name=\"" + EDITED_ROLLOUT + "\"");
        assertThat(edited).isNotEqualTo(rollout);
        return edited;
    }

    @Test
    @Order(1)
    void aFileWithABuiltInsIdTakesItsPlaceAndTheOthersDeployBeside() throws Exception {
        assertThat(repository.createProcessDefinitionQuery().processDefinitionKey("rollout").count())
                .as("the built-in rollout is not deployed at all").isEqualTo(1);
        ProcessDefinition rollout = repository.createProcessDefinitionQuery().processDefinitionKey("rollout").latestVersion().singleResult();
        assertThat(rollout.getName()).isEqualTo(EDITED_ROLLOUT);
        assertThat(rollout.getResourceName()).isEqualTo("config-processes/rollout.bpmn");
        Deployment deployment = repository.createDeploymentQuery().deploymentId(rollout.getDeploymentId()).singleResult();
        assertThat(deployment.getName()).isEqualTo(ProcedureDeployer.NAME);
        assertThat(deployment.getSource()).isEqualTo(ProcedureDeployer.SOURCE);
        // the built-ins beside it, under names that do not depend on how the jar was built
        assertThat(repository.createProcessDefinitionQuery().processDefinitionKey("scale").latestVersion().singleResult().getResourceName())
                .isEqualTo("processes/scale.bpmn");
        assertThat(repository.createDecisionDefinitionQuery().decisionDefinitionKey("maintenance-window").count()).isEqualTo(1);

        // the form with the built-in's id is the one Tasklist gets for the scale's start
        ResponseEntity<String> form = http.withBasicAuth("admin", "admin")
                .getForEntity("/engine-rest/process-definition/key/scale/deployed-start-form", String.class);
        assertThat(form.getStatusCode()).isEqualTo(HttpStatus.OK);
        assertThat(form.getBody()).contains(EDITED_SCALE_LABEL);

        // and a start of the application with nothing changed deploys nothing
        assertThat(new ProcedureDeployer(ProcedureResources.read(DIR.toString())).deploy(engine)).isEmpty();
    }

    @Test
    @Order(2)
    void aWorkloadTypeDroppedIntoTheDirectoryWorksWithoutARebuild() throws Exception {
        // the fleet names "redis": the application started, so the type was known; now a rollout drains and rejoins through
        // it, one instance at a time: its descriptor's majority quorum caps the policy's max-unavailable 2 (quorum one would not)
        await().atMost(Duration.ofSeconds(60)).until(() -> http.withBasicAuth("admin", "admin")
                .getForObject("/api/replica-sets/cache", String.class).split("\"running\"").length - 1 >= 3);
        HttpHeaders headers = new HttpHeaders();
        headers.setContentType(MediaType.APPLICATION_JSON);
        ResponseEntity<String> started = http.withBasicAuth("admin", "admin").postForEntity("/api/replica-sets/cache/rollouts",
                new HttpEntity<>(JSON.writeValueAsString(Map.of("dockerCompose", "services:\n  redis:\n    image: redis:7.4\n")), headers), String.class);
        assertThat(started.getStatusCode()).as(started.getBody()).isEqualTo(HttpStatus.CREATED);
        String pid = JSON.readTree(started.getBody()).get("processInstanceId").asText();
        await().atMost(Duration.ofMinutes(3)).until(() -> history.createHistoricProcessInstanceQuery().processInstanceId(pid).finished().count() == 1);
        assertThat(history.createHistoricProcessInstanceQuery().processInstanceId(pid).singleResult().getEndActivityId())
                .isEqualTo("EndEvent_RolloutCompleted");
        assertThat(history.createHistoricProcessInstanceQuery().processDefinitionKey("drain-redis").finished().count()).isEqualTo(3);
        assertThat(history.createHistoricProcessInstanceQuery().processDefinitionKey("rejoin-redis").finished().count()).isEqualTo(3);
        assertThat(history.createHistoricVariableInstanceQuery().processInstanceId(pid).variableName("waves").singleResult().getValue())
                .as("one instance per wave: the budget kept the majority").isEqualTo(List.of(List.of("cache-2"), List.of("cache-1"), List.of("cache-0")));
        assertThat(http.withBasicAuth("admin", "admin").getForObject("/api/replica-sets/cache", String.class))
                .contains("quorum 2 of 3, tolerates 1 down");
    }

    @Test
    @Order(3)
    void aProcedureDeployedFromTheModelerIsNotReplacedAtTheNextStart() throws Exception {
        String scale = Files.readString(BUILT_IN.resolve("scale.bpmn"))
                .replaceFirst("name=\"Scale a replica set\"", "name=\"Scale a replica set (from the Modeler)\"");
        String modeler = repository.createDeployment().name("scale").source("Camunda Modeler")
                .addString("scale.bpmn", scale).deploy().getId();

        // the next start: the built-in scale, unchanged, stays behind the operator's
        assertThat(new ProcedureDeployer(ProcedureResources.read(DIR.toString())).deploy(engine)).isEmpty();
        ProcessDefinition latest = repository.createProcessDefinitionQuery().processDefinitionKey("scale").latestVersion().singleResult();
        assertThat(latest.getDeploymentId()).isEqualTo(modeler);

        // the same for a file of the directory, until the operator edits that file
        String rolloutModeler = repository.createDeployment().name("rollout").source("Camunda Modeler")
                .addString("rollout.bpmn", editedRollout().replace(EDITED_ROLLOUT, "From the Modeler")).deploy().getId();
        assertThat(new ProcedureDeployer(ProcedureResources.read(DIR.toString())).deploy(engine)).isEmpty();
        assertThat(repository.createProcessDefinitionQuery().processDefinitionKey("rollout").latestVersion().singleResult().getDeploymentId())
                .isEqualTo(rolloutModeler);
        Path edited = Files.createTempDirectory("orch-processes-edited-");
        try (var files = Files.list(DIR)) {
            for (Path file : files.toList()) {
                Files.copy(file, edited.resolve(file.getFileName()));
            }
        }
        Files.writeString(edited.resolve("rollout.bpmn"), editedRollout().replace(EDITED_ROLLOUT, "Edited again in config/processes"));
        assertThat(new ProcedureDeployer(ProcedureResources.read(edited.toString())).deploy(engine)).isPresent();
        assertThat(repository.createProcessDefinitionQuery().processDefinitionKey("rollout").latestVersion().singleResult().getName())
                .isEqualTo("Edited again in config/processes");
        assertThat(repository.createProcessDefinitionQuery().processDefinitionKey("scale").latestVersion().singleResult().getDeploymentId())
                .as("the Modeler's scale still stands").isEqualTo(modeler);
    }

    private static final String DECISION = """
            <?xml version="1.0" encoding="UTF-8"?>
            <definitions xmlns="https://www.omg.org/spec/DMN/20191111/MODEL/" xmlns:camunda="http://camunda.org/schema/1.0/dmn"
                         id="Definitions_Maintenance" name="Maintenance window"
                         namespace="https://statefulcvm.com/decisions">
              <decision id="maintenance-window" name="May this set be rolled out now?" camunda:historyTimeToLive="P90D">
                <decisionTable id="DecisionTable_Maintenance" hitPolicy="FIRST">
                  <input id="Input_Set" label="Replica set">
                    <inputExpression id="InputExpression_Set" typeRef="string"><text>replicaSet</text></inputExpression>
                  </input>
                  <output id="Output_Allowed" label="Allowed" name="allowed" typeRef="boolean" />
                  <rule id="Rule_Any">
                    <inputEntry id="InputEntry_Any"><text></text></inputEntry>
                    <outputEntry id="OutputEntry_Yes"><text>true</text></outputEntry>
                  </rule>
                </decisionTable>
              </decision>
            </definitions>
            """;

}
