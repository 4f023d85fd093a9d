package com.statefulcvm.web.api;

import com.statefulcvm.web.RolloutDriver;
import com.statefulcvm.web.E2eSupport;
import com.fasterxml.jackson.databind.JsonNode;
import com.statefulcvm.fleet.InstanceRegistry;
import com.statefulcvm.simulator.cloud.SimulatedCloud;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.client.TestRestTemplate;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.context.event.EventListener;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The application's readiness: {@code /actuator/health/readiness} refuses traffic until the fleet bootstrap is over
 * (before, a set has no app yet and {@code /api} answers "has no appId"), and it and liveness answer without
 * authentication. What readiness said when is recorded as the events come, with what the simulator and the registry
 * held at that moment.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.DEFINED_PORT)
@ActiveProfiles("e2e")
@Import(ReadinessTest.ReadinessLogConfiguration.class)
class ReadinessTest {

    @DynamicPropertySource
    static void port(DynamicPropertyRegistry registry) {
        E2eSupport.onFreePortWithDatabase(registry, "readiness-test");
    }

    /** One readiness change: the state, how many CVMs the simulator held, and whether webdemo's app was recorded. */
    record Change(ReadinessState state, long cvms, boolean appRecorded) {
    }

    @TestConfiguration
    static class ReadinessLogConfiguration {

        @Bean
        ReadinessLog readinessLog(SimulatedCloud simulator, InstanceRegistry registry) {
            return new ReadinessLog(simulator, registry);
        }
    }

    static class ReadinessLog {

        final List<Change> changes = new CopyOnWriteArrayList<>();
        private final SimulatedCloud simulator;
        private final InstanceRegistry registry;

        ReadinessLog(SimulatedCloud simulator, InstanceRegistry registry) {
            this.simulator = simulator;
            this.registry = registry;
        }

        @EventListener
        void onReadiness(AvailabilityChangeEvent<ReadinessState> event) {
            changes.add(new Change(event.getState(), simulator.cvms(1, 100, null).total(),
                    registry.createdAppId("webdemo").isPresent()));
        }
    }

    @Autowired
    TestRestTemplate http;
    @Autowired
    ReadinessLog log;

    @Test
    void readinessRefusesTrafficUntilTheFleetBootstrapIsOverAndNeedsNoCredentials() throws Exception {
        assertThat(log.changes).as("what readiness said, and what the bootstrap had done by then").isNotEmpty();
        Change first = log.changes.get(0);
        Change last = log.changes.get(log.changes.size() - 1);
        assertThat(first).as("refusing before the bootstrap has created anything")
                .isEqualTo(new Change(ReadinessState.REFUSING_TRAFFIC, 0, false));
        assertThat(last).as("accepting once the app is recorded and its 3 slots created")
                .isEqualTo(new Change(ReadinessState.ACCEPTING_TRAFFIC, 3, true));
        assertThat(log.changes.stream().filter(c -> c.state() == ReadinessState.ACCEPTING_TRAFFIC))
                .as("never accepting before that").allMatch(c -> c.cvms() == 3 && c.appRecorded());

        ResponseEntity<String> readiness = http.getForEntity("/actuator/health/readiness", String.class);
        assertThat(readiness.getStatusCode()).as(readiness.getBody()).isEqualTo(HttpStatus.OK);
        assertThat(RolloutDriver.JSON.readTree(readiness.getBody()).get("status").asText()).isEqualTo("UP");
        ResponseEntity<String> liveness = http.getForEntity("/actuator/health/liveness", String.class);
        assertThat(liveness.getStatusCode()).as(liveness.getBody()).isEqualTo(HttpStatus.OK);
        assertThat(RolloutDriver.JSON.readTree(liveness.getBody()).get("status").asText()).isEqualTo("UP");

        ResponseEntity<String> plan = http.withBasicAuth("admin", "admin").postForEntity(
                "/api/replica-sets/webdemo/rollouts/plan",
                RolloutDriver.json(java.util.Map.of("dockerCompose", "services:\n  web:\n    image: nginxdemos/hello:0.4\n")),
                String.class);
        JsonNode body = RolloutDriver.JSON.readTree(plan.getBody());
        assertThat(plan.getStatusCode()).as(plan.getBody()).isEqualTo(HttpStatus.OK);
        assertThat(body.toString()).doesNotContain("has no appId");
    }
}
