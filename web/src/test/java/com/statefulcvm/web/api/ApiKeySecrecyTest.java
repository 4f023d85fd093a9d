package com.statefulcvm.web.api;

import com.statefulcvm.web.RolloutDriver;
import com.statefulcvm.web.E2eSupport;
import com.statefulcvm.web.DatabaseScan;
import org.camunda.bpm.engine.HistoryService;
import org.camunda.bpm.engine.TaskService;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.client.TestRestTemplate;
import org.springframework.http.HttpStatus;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import javax.sql.DataSource;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The Phala Cloud API key never reaches a log line or the database. The key is distinctive and read from a file
 * ({@code orchestrator.phala.api-key-file}); the embedded simulator is made to require exactly that key, so a rollout
 * that completes proves the key was sent on every Phala call. Everything the application logged from its start (our
 * packages, the Phala client and Spring MVC at DEBUG) is scanned, and so is every text and binary column of every
 * table: the engine's (ACT_HI_VARINST, ACT_HI_DETAIL, ACT_RU_VARIABLE, ACT_HI_OP_LOG, ACT_GE_BYTEARRAY, ...) and ours
 * (orch_*), once while the rollout waits for its approval and once after it ended.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.DEFINED_PORT, properties = {
        // logging levels must be known before the context starts (dynamic properties come too late for them)
        "logging.level.com.statefulcvm=DEBUG", "logging.level.org.springframework.web=DEBUG"})
@ActiveProfiles("e2e")
@ExtendWith(OutputCaptureExtension.class)
class ApiKeySecrecyTest {

    private static final String KEY = "phak_LEAKCANARY_" + UUID.randomUUID().toString().replace("-", "").substring(0, 24);
    private static final String SET = "webdemo";
    private static final String COMPOSE = "services:\n  web:\n    image: nginxdemos/hello:0.6-secrecy-check\n";

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        E2eSupport.onFreePortWithDatabase(registry, "api-key-secrecy-test");
        registry.add("orchestrator.phala.api-key", () -> "");
        registry.add("orchestrator.phala.api-key-file", ApiKeySecrecyTest::keyFile);
        registry.add("simulator.api-key", () -> KEY);
    }

    private static String keyFile() {
        try {
            Path file = Files.createTempFile("phala-api-key", ".txt");
            Files.writeString(file, KEY + "\n");
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
            file.toFile().deleteOnExit();
            return file.toString();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Autowired
    TestRestTemplate http;
    @Autowired
    TaskService tasks;
    @Autowired
    HistoryService history;
    @Autowired
    DataSource dataSource;
    @Autowired
    org.camunda.bpm.engine.RuntimeService runtime;
    @Autowired
    org.camunda.bpm.engine.ManagementService management;

    @Test
    void aRolloutEndToEndLeavesTheKeyInNoLogLineAndNoTable(CapturedOutput output) throws Exception {
        RolloutDriver driver = new RolloutDriver(http, tasks, history, SET);
        driver.awaitAllRunning(3);
        // a deadline no loaded test machine misses: the point here is the key, not the halt
        String pid = driver.startRollout(COMPOSE, Map.of("progressDeadlineSeconds", 300));
        driver.awaitTask(pid, "UserTask_ApproveRollout");
        DatabaseScan.Scan waiting = scan();
        driver.approve(pid);
        try {
            await().atMost(Duration.ofMinutes(4)).until(() -> history.createHistoricProcessInstanceQuery()
                    .processInstanceId(pid).finished().count() == 1);
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            throw new AssertionError("the rollout did not end; it is at " + runtime.getActivityInstance(pid)
                    + ", jobs " + management.createJobQuery().list().stream()
                    .map(j -> j.getId() + " due " + j.getDuedate() + " retries " + j.getRetries() + " " + j.getExceptionMessage()).toList()
                    + ", incidents " + runtime.createIncidentQuery().list().stream().map(i -> i.getIncidentMessage()).toList(), e);
        }
        assertThat(history.createHistoricProcessInstanceQuery().processInstanceId(pid).singleResult().getEndActivityId())
                .as("every Phala call carried the key the simulator requires").isEqualTo("EndEvent_RolloutCompleted");
        assertThat(http.withBasicAuth("admin", "admin").getForEntity("/api/rollouts/" + pid, String.class).getStatusCode())
                .isEqualTo(HttpStatus.OK);
        DatabaseScan.Scan ended = scan();

        // the scans looked where the key could be: the tables named in the issue and every one of ours ...
        for (DatabaseScan.Scan s : List.of(waiting, ended)) {
            assertThat(s.tables()).contains("ACT_HI_VARINST", "ACT_HI_DETAIL", "ACT_RU_VARIABLE", "ACT_HI_OP_LOG", "ACT_GE_BYTEARRAY",
                    "ORCH_INSTANCE", "ORCH_REVISION", "ORCH_REPLICA_SET");
            // ... and they would have found a value the rollout did store (the compose of this rollout)
            assertThat(s.tablesContaining("nginxdemos/hello:0.6-secrecy-check")).as("the scan finds stored values").isNotEmpty();
            assertThat(s.tablesContaining(KEY)).as("tables holding the API key").isEmpty();
        }
        assertThat(waiting.tablesContaining("nginxdemos/hello:0.6-secrecy-check")).contains("ACT_RU_VARIABLE");

        // the log holds the Phala client's own request lines (so its DEBUG output was captured), and never the key
        String log = output.getAll();
        assertThat(log).contains("Phala Cloud API key read from").contains("---> GET http://127.0.0.1:");
        assertThat(log).doesNotContain(KEY).doesNotContain(KEY.substring(5));
        assertThat(http.withBasicAuth("admin", "admin").getForEntity("/actuator/env", String.class).getStatusCode())
                .as("no environment endpoint to read it from").isIn(HttpStatus.NOT_FOUND, HttpStatus.UNAUTHORIZED);
    }

    private DatabaseScan.Scan scan() throws SQLException {
        return DatabaseScan.scan(dataSource, List.of(KEY, "nginxdemos/hello:0.6-secrecy-check"));
    }
}
