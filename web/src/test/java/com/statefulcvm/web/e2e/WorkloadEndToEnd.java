package com.statefulcvm.web.e2e;

import com.statefulcvm.web.SimulatorView;
import com.statefulcvm.web.RolloutDriver;
import com.statefulcvm.web.E2eSupport;
import com.fasterxml.jackson.databind.JsonNode;
import org.camunda.bpm.engine.HistoryService;
import org.camunda.bpm.engine.TaskService;
import org.junit.jupiter.api.BeforeEach;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.client.TestRestTemplate;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What the rolling restarts of real workloads share: the application on a fixed port with its own database and the
 * cluster's process backends, the drivers, the CVMs' gateway routes (the way the orchestrator reaches a workload) and
 * the set's current compose (a restart rolls out the compose the set already runs).
 */
abstract class WorkloadEndToEnd {

    static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();

    @Autowired
    TestRestTemplate http;
    @Autowired
    TaskService tasks;
    @Autowired
    HistoryService history;
    @LocalServerPort
    int port;

    RolloutDriver driver;
    SimulatorView simulator;
    WorkloadRollouts rollouts;

    /** The replica set whose CVMs the workload's processes back. */
    abstract String set();

    /** The port of the workload's API inside each CVM. */
    abstract int workloadPort();

    /** For a {@code @DynamicPropertySource}: the cluster's backends must be known before the context starts. */
    static void register(DynamicPropertyRegistry registry, String database, Map<String, String> backendProperties) {
        E2eSupport.onFreePortWithDatabase(registry, database);
        backendProperties.forEach((name, value) -> registry.add(name, () -> value));
    }

    @BeforeEach
    void drivers() {
        driver = new RolloutDriver(http, tasks, history, set());
        simulator = new SimulatorView(http);
        rollouts = new WorkloadRollouts(history, http);
    }

    String slot(int ordinal) {
        return set() + "-" + ordinal;
    }

    List<URI> gatewayRoutes(int replicas) throws Exception {
        List<URI> routes = new ArrayList<>();
        for (int ordinal = 0; ordinal < replicas; ordinal++) {
            routes.add(WorkloadRollouts.gatewayRoute(port, simulator.cvm(slot(ordinal)).path("instance_id").asText(), workloadPort()));
        }
        return routes;
    }

    /** Health through each CVM's gateway route, as the orchestrator probes it. */
    boolean allHealthyThroughTheGateway(int replicas) throws Exception {
        for (URI route : gatewayRoutes(replicas)) {
            URI health = URI.create(route + "/health");
            if (HTTP.send(HttpRequest.newBuilder(health).timeout(Duration.ofSeconds(3)).GET().build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode() != 200) {
                return false;
            }
        }
        return true;
    }

    String currentCompose() throws Exception {
        String revisionsPath = "/api/replica-sets/" + set() + "/revisions";
        JsonNode revisions = RolloutDriver.JSON.readTree(driver.admin().getForObject(revisionsPath, String.class));
        for (JsonNode revision : revisions) {
            if (revision.path("current").asBoolean()) {
                return RolloutDriver.JSON.readTree(driver.admin().getForObject(revisionsPath + "/"
                        + revision.get("number").asInt(), String.class)).get("dockerCompose").asText();
            }
        }
        throw new AssertionError("no current revision in " + revisions);
    }
}
