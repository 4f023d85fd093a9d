package com.statefulcvm.web.security;

import com.statefulcvm.web.config.PhalaTarget;
import org.junit.jupiter.api.Test;
import org.springframework.mock.env.MockEnvironment;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** What makes a production deployment refuse to start, one cause at a time (ProductionProfileTest starts one). */
class ProductionSafetyTest {

    @Test
    void eachCauseIsNamedAndASafeDeploymentHasNone() {
        assertThat(ProductionSafety.problems(new ProductionSafety.Facts(false, List.of(), true, false))).isEmpty();
        assertThat(ProductionSafety.problems(new ProductionSafety.Facts(false, List.of(), false, true)))
                .as("TLS terminated by a declared proxy").isEmpty();
        assertThat(ProductionSafety.problems(new ProductionSafety.Facts(true, List.of(), true, false)))
                .singleElement().asString().startsWith("simulator.enabled is true");
        assertThat(ProductionSafety.problems(new ProductionSafety.Facts(false, List.of("admin", "ops"), true, false)))
                .containsExactly(
                        "the admin 'admin' still logs in with a default password ('admin' or its own id); change it in the Admin webapp "
                                + "(ORCHESTRATOR_ADMIN_PASSWORD only sets the password of a user created on that start)",
                        "the admin 'ops' still logs in with a default password ('admin' or its own id); change it in the Admin webapp "
                                + "(ORCHESTRATOR_ADMIN_PASSWORD only sets the password of a user created on that start)");
        assertThat(ProductionSafety.problems(new ProductionSafety.Facts(false, List.of(), false, false)))
                .singleElement().asString().startsWith("no TLS: set server.ssl.*");
    }

    @Test
    void productionIsTheProfileOrAnyPhalaApiButThisMachinesSimulator() {
        assertThat(ProductionSafety.production(new MockEnvironment()
                .withProperty("orchestrator.phala.base-url", "http://127.0.0.1:8080/simulator/api/v1"))).isFalse();
        MockEnvironment phala = new MockEnvironment().withProperty("orchestrator.phala.base-url", "http://127.0.0.1:8080/simulator/api/v1");
        phala.setActiveProfiles("phala", "postgres");
        assertThat(ProductionSafety.production(phala)).isTrue();
        assertThat(ProductionSafety.production(new MockEnvironment()
                .withProperty("orchestrator.phala.base-url", "https://cloud-api.phala.com/api/v1"))).isTrue();
        assertThat(ProductionSafety.production(new MockEnvironment())).as("no Phala API named").isTrue();
    }

    @Test
    void onlyALoopbackAddressIsThisMachine() {
        assertThat(PhalaTarget.isLocal("http://127.0.0.1:8080/simulator/api/v1")).isTrue();
        assertThat(PhalaTarget.isLocal("http://localhost:1/x")).isTrue();
        assertThat(PhalaTarget.isLocal("http://[::1]:8080/simulator/api/v1")).isTrue();
        assertThat(PhalaTarget.isLocal("https://cloud-api.phala.com/api/v1")).isFalse();
        assertThat(PhalaTarget.isLocal("http://10.0.0.5/simulator/api/v1")).isFalse();
        assertThat(PhalaTarget.isLocal("http://127.0.0.1.attacker.example/api/v1")).isFalse();
        assertThat(PhalaTarget.isLocal("not a url")).isFalse();
        assertThat(PhalaTarget.isLocal(null)).isFalse();
    }
}
