package com.statefulcvm.web.api;

import com.statefulcvm.web.e2e.PatroniFailoverTest;
import com.statefulcvm.web.E2eSupport;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.statefulcvm.delegates.procedure.FailoverVariables;
import org.camunda.bpm.engine.IdentityService;
import org.camunda.bpm.engine.RuntimeService;
import org.camunda.bpm.engine.identity.User;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
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

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code POST /api/replica-sets/{name}/failover} around the procedure: what it refuses (each refusal says why and
 * starts nothing), what it starts (business key the set's name, the caller and the reason kept), and that a second
 * failover of a set waits for the first (every CVM of the set crashed, so that no simulated Patroni answers). The
 * failover itself, against a real Patroni, is PatroniFailoverTest.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.DEFINED_PORT)
@ActiveProfiles({"e2e", "failover-api"})
class FailoverApiTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @DynamicPropertySource
    static void port(DynamicPropertyRegistry registry) {
        int port = E2eSupport.freePort();
        registry.add("server.port", () -> port);
        registry.add("spring.datasource.url", () -> "jdbc:h2:mem:failover-api-test;DB_CLOSE_DELAY=-1");
    }

    @Autowired
    TestRestTemplate http;
    @Autowired
    RuntimeService runtime;
    @Autowired
    IdentityService identity;

    @AfterEach
    void deleteRunningFailovers() {
        E2eSupport.deleteRunning(runtime, FailoverVariables.PROCESS_KEY);
    }

    private ResponseEntity<String> post(TestRestTemplate as, String set, String body) {
        HttpHeaders headers = new HttpHeaders();
        headers.setContentType(MediaType.APPLICATION_JSON);
        return as.postForEntity("/api/replica-sets/" + set + "/failover", body == null ? null : new HttpEntity<>(body, headers), String.class);
    }

    private static void refused(ResponseEntity<String> answer, HttpStatus status, String message) throws Exception {
        assertThat(answer.getStatusCode()).as(answer.getBody()).isEqualTo(status);
        assertThat(JSON.readTree(answer.getBody()).get("message").asText()).contains(message);
    }

    @Test
    void whatCanNeverFailOverIsRefusedWithTheReasonAndNothingStarts() throws Exception {
        TestRestTemplate admin = http.withBasicAuth("admin", "admin");
        refused(post(admin, "nosuchset", null), HttpStatus.NOT_FOUND, "unknown replica set 'nosuchset'");
        refused(post(admin, "webapi", null), HttpStatus.BAD_REQUEST,
                "replica set 'webapi' is workload type 'generic': failover.bpmn fails over workload type patroni only");
        refused(post(admin, "pgapi", "{\"reason\": 5}"), HttpStatus.BAD_REQUEST, "reason: must be a string");
        refused(post(admin, "pgapi", "{\"candidate\": \"pgapi-1\"}"), HttpStatus.BAD_REQUEST, "candidate");
        refused(post(admin, "pgapi", "[]"), HttpStatus.BAD_REQUEST, "reason");
        assertThat(runtime.createProcessInstanceQuery().processDefinitionKey(FailoverVariables.PROCESS_KEY).count()).isZero();
    }

    @Test
    void aUserOutsideTheOperatorsMayNotStartAFailover() throws Exception {
        if (identity.createUserQuery().userId("failoverauditor").count() == 0) {
            User user = identity.newUser("failoverauditor");
            user.setPassword("auditor-password");
            identity.saveUser(user);
        }
        refused(post(http.withBasicAuth("failoverauditor", "auditor-password"), "pgapi", null), HttpStatus.FORBIDDEN,
                "CREATE_INSTANCE on the process definition 'failover'");
        assertThat(runtime.createProcessInstanceQuery().processDefinitionKey(FailoverVariables.PROCESS_KEY).count()).isZero();
    }

    @Test
    void aFailoverStartsWithTheCallerAndTheReasonAndASecondOneWaitsForIt() throws Exception {
        TestRestTemplate admin = http.withBasicAuth("admin", "admin");
        // the simulator's Patroni answers behind every running CVM of the set: with all three down, none does
        await().atMost(Duration.ofSeconds(30)).until(() -> crashAll("pgapi-0", "pgapi-1", "pgapi-2"));
        ResponseEntity<String> started = post(admin, "pgapi", "{\"reason\": \"the leader's host died\"}");
        assertThat(started.getStatusCode()).as(started.getBody()).isEqualTo(HttpStatus.CREATED);
        JsonNode body = JSON.readTree(started.getBody());
        String pid = body.get("processInstanceId").asText();
        assertThat(body.get("replicaSet").asText()).isEqualTo("pgapi");
        assertThat(started.getHeaders().getLocation()).hasToString("/engine-rest/process-instance/" + pid);
        assertThat(runtime.createProcessInstanceQuery().processInstanceId(pid).singleResult().getBusinessKey()).isEqualTo("pgapi");
        assertThat(runtime.getVariable(pid, FailoverVariables.FAILOVER_REASON)).isEqualTo("requested by admin: the leader's host died");
        assertThat(runtime.getVariable(pid, FailoverVariables.REQUESTED_BY)).isEqualTo("admin");

        ResponseEntity<String> second = post(admin, "pgapi", null);
        refused(second, HttpStatus.CONFLICT, "a failover of replica set 'pgapi' is already running");
        assertThat(JSON.readTree(second.getBody()).toString()).contains(pid);

        // no Patroni answers behind the crashed CVMs: the leader is lost, and Patroni is given its grace to elect one
        await().atMost(Duration.ofSeconds(60)).until(() -> "WAITING".equals(runtime.getVariable(pid, FailoverVariables.LEADER_VERDICT)));
        assertThat((String) runtime.getVariable(pid, "stage")).startsWith("no member's Patroni answers; waiting until");
    }

    /** Crashes each CVM once it exists and runs (the bootstrap creates them); true once all are stopped. */
    private boolean crashAll(String... cvms) {
        boolean allStopped = true;
        for (String cvm : cvms) {
            ResponseEntity<String> crashed = http.postForEntity("/simulator/_admin/cvms/" + cvm + "/crash", null, String.class);
            allStopped &= crashed.getStatusCode() == HttpStatus.OK && crashed.getBody().contains("\"stopped\"");
        }
        return allStopped;
    }
}
