package com.statefulcvm.web.e2e;

import com.statefulcvm.web.RolloutDriver;
import com.fasterxml.jackson.databind.JsonNode;
import org.springframework.boot.test.web.client.TestRestTemplate;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Starts scales of a set through the REST API, as an operator would, and reads the set's status. */
final class WorkloadScales {

    private final TestRestTemplate admin;
    private final String set;

    WorkloadScales(TestRestTemplate http, String set) {
        this.admin = http.withBasicAuth("admin", "admin");
        this.set = set;
    }

    /** {@code POST /api/replica-sets/{set}/scale {"replicas": n}}; must answer 201; the scale's process instance id. */
    String start(int replicas) throws Exception {
        ResponseEntity<String> created = admin.postForEntity("/api/replica-sets/" + set + "/scale",
                RolloutDriver.json(Map.of("replicas", replicas, "reason", "scale test")), String.class);
        assertThat(created.getStatusCode()).as(created.getBody()).isEqualTo(HttpStatus.CREATED);
        return RolloutDriver.JSON.readTree(created.getBody()).get("processInstanceId").asText();
    }

    /** {@code GET /api/replica-sets/{set}} (refreshed from the simulator). */
    JsonNode status() throws Exception {
        return RolloutDriver.JSON.readTree(admin.getForObject("/api/replica-sets/" + set, String.class));
    }
}
