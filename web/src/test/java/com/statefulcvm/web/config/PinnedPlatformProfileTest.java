package com.statefulcvm.web.config;

import com.statefulcvm.fleet.FleetDefinition;
import com.statefulcvm.fleet.FleetValidator;
import com.statefulcvm.fleet.ReplicaSetSpec;
import org.junit.jupiter.api.Test;
import org.springframework.mock.env.MockEnvironment;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 20: the {@code phala} profile makes the platform pin mandatory (the validator the application is built with);
 * elsewhere "any" is accepted. The rule itself: FleetValidatorTest.
 */
class PinnedPlatformProfileTest {

    private static List<String> problemsUnder(String... profiles) {
        MockEnvironment environment = new MockEnvironment();
        environment.setActiveProfiles(profiles);
        OrchestratorProperties properties = new OrchestratorProperties();
        FleetValidator validator = new FleetConfiguration().fleetValidator(properties,
                com.statefulcvm.fleet.WorkloadCatalog.BUILT_IN, environment);
        ReplicaSetSpec set = new ReplicaSetSpec();
        set.setName("webdemo");
        set.setAppId("ab".repeat(20));
        set.setDockerCompose("services:\n  web:\n    image: nginx\n");
        FleetDefinition fleet = new FleetDefinition();
        fleet.setReplicaSets(List.of(set));
        return validator.validate(fleet);
    }

    @Test
    void thePhalaProfileRefusesAnUnpinnedSetTheDemoAcceptsIt() {
        assertThat(problemsUnder("phala", "postgres")).anyMatch(p -> p.contains("attestation.platforms: must pin"))
                .anyMatch(p -> p.contains("attestation.kmsKeyIds: must pin"));
        assertThat(problemsUnder("e2e")).noneMatch(p -> p.contains("attestation."));
    }
}
