package com.statefulcvm.web.config;

import com.statefulcvm.web.OrchestratorApplication;
import com.statefulcvm.fleet.FleetDefinitionException;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.core.NestedExceptionUtils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/** A fleet file that makes no sense must stop start-up with a message naming the replica set and the field. */
class FleetFileStartupTest {

    private static Throwable startWith(String... properties) {
        // The fleet lives in one property source only: Spring Boot binds a list from a single source.
        return catchThrowable(() -> new SpringApplicationBuilder(OrchestratorApplication.class)
                .properties("server.port=0", "spring.datasource.url=jdbc:h2:mem:bad-fleet;DB_CLOSE_DELAY=-1",
                        "spring.config.import=", "orchestrator.observe.enabled=false", "simulator.state-file=",
                        "orchestrator.fleet.replica-sets[0].name=webdemo",
                        "orchestrator.fleet.replica-sets[0].replicas=1",
                        "orchestrator.fleet.replica-sets[0].docker-compose=services: {web: {image: nginx}}")
                .properties(properties)
                .run().close());
    }

    @Test
    void aBadPolicyValueNamesTheSetAndTheField() {
        Throwable failure = startWith(
                "orchestrator.fleet.replica-sets[0].update-policy.max-surge=one",
                "orchestrator.fleet.replica-sets[0].workload-type=mongodb");
        Throwable cause = NestedExceptionUtils.getMostSpecificCause(failure);
        assertThat(cause).isInstanceOf(FleetDefinitionException.class);
        assertThat(cause.getMessage())
                .contains("replicaSets[0] (webdemo): updatePolicy.maxSurge: must be a whole number or a percentage like 25% (was 'one')")
                .contains("replicaSets[0] (webdemo): workloadType: unknown workload type 'mongodb'");
    }

    @Test
    void aMisspeltKeyIsRefusedRatherThanIgnored() {
        Throwable failure = startWith("orchestrator.fleet.replica-sets[0].update-policy.max-unavailabel=2");
        Throwable cause = NestedExceptionUtils.getMostSpecificCause(failure);
        assertThat(cause).isInstanceOf(FleetDefinitionException.class);
        assertThat(cause.getMessage()).contains("replicaSets[0] (webdemo): update-policy.max-unavailabel: unknown key; known keys: "
                + "[approve-leader, max-surge, max-unavailable, min-ready-seconds, minimal-action, most-disruptive-allowed-action, on-failure, "
                + "order, partition, progress-deadline-seconds, type]");
    }

    @Test
    void anApiKeyInTheFleetFileIsRefusedWithoutRepeatingIt() {
        Throwable failure = startWith("orchestrator.fleet.replica-sets[0].api-key=phak_do_not_put_me_here",
                "orchestrator.phala.api-key=phak_nor_here_beside_the_fleet");
        Throwable cause = NestedExceptionUtils.getMostSpecificCause(failure);
        assertThat(cause).isInstanceOf(FleetDefinitionException.class);
        assertThat(cause.getMessage())
                .contains("replicaSets[0] (webdemo): api-key: a secret does not belong in the fleet file; the Phala Cloud API key "
                        + "comes from the environment (PHALA_API_KEY) or orchestrator.phala.api-key-file")
                .contains("orchestrator.phala.api-key: a secret does not belong in the fleet file")
                .doesNotContain("phak_do_not_put_me_here").doesNotContain("phak_nor_here");
    }

    @Test
    void withoutTheSimulatorStartUpNeedsAKeyFromTheEnvironmentOrAFile() {
        // as arguments: application.yaml would override defaults (simulator.enabled: true)
        Throwable failure = catchThrowable(() -> new SpringApplicationBuilder(OrchestratorApplication.class)
                .run("--server.port=0", "--spring.datasource.url=jdbc:h2:mem:no-key;DB_CLOSE_DELAY=-1", "--spring.config.import=",
                        "--orchestrator.observe.enabled=false", "--simulator.enabled=false", "--orchestrator.phala.api-key=",
                        "--orchestrator.phala.base-url=http://127.0.0.1:9/api/v1",
                        "--orchestrator.fleet.replica-sets[0].name=webdemo", "--orchestrator.fleet.replica-sets[0].replicas=1",
                        "--orchestrator.fleet.replica-sets[0].docker-compose=services: {web: {image: nginx}}")
                .close());
        assertThat(NestedExceptionUtils.getMostSpecificCause(failure)).hasMessageContaining(
                "No Phala Cloud API key: set the environment variable PHALA_API_KEY (or PHALA_CLOUD_API_KEY), or orchestrator.phala.api-key-file");
    }
}
