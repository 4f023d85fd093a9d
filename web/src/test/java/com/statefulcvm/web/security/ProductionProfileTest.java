package com.statefulcvm.web.security;

import com.statefulcvm.web.OrchestratorApplication;
import org.camunda.bpm.spring.boot.starter.webapp.filter.LazyInitRegistration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.core.NestedExceptionUtils;

import java.lang.reflect.Field;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * The {@code phala} profile, as config/application-phala.yaml has it, refuses to start an unsafe deployment, and says
 * every reason at once: the embedded simulator on, an admin whose password is still {@code admin} (here although
 * ORCHESTRATOR_ADMIN_PASSWORD is set: the user was created with the other), plain HTTP without a declared TLS proxy.
 * Checked before the web server listens. (Each cause alone: ProductionSafetyTest.)
 */
class ProductionProfileTest {

    @Test
    void theProductionProfileRefusesToStartUnsafeAndNamesEachReason() throws Exception {
        Throwable failure = catchThrowable(() -> new SpringApplicationBuilder(OrchestratorApplication.class)
                .run("--spring.profiles.active=phala", "--spring.config.additional-location=optional:file:../config/",
                        "--spring.config.import=", "--server.port=0",
                        "--spring.datasource.url=jdbc:h2:mem:production-profile;DB_CLOSE_DELAY=-1",
                        "--orchestrator.observe.enabled=false", "--orchestrator.healing.enabled=false", "--simulator.state-file=",
                        "--orchestrator.phala.api-key=phak_test_only", "--orchestrator.phala.base-url=http://127.0.0.1:9/api/v1",
                        "--simulator.enabled=true",
                        "--orchestrator.fleet.replica-sets[0].name=webdemo", "--orchestrator.fleet.replica-sets[0].replicas=1",
                        "--orchestrator.fleet.replica-sets[0].app-id=0123456789abcdef0123456789abcdef01234567",
                        "--orchestrator.fleet.replica-sets[0].docker-compose=services: {web: {image: nginx}}",
                        // a fleet for the real Phala Cloud pins its platforms and KMS key (FleetValidator, issue 20)
                        "--orchestrator.fleet.replica-sets[0].attestation.kms-key-ids[0]=" + "ab".repeat(32),
                        "--orchestrator.fleet.replica-sets[0].attestation.platforms[0].mrtd=" + "a1".repeat(48),
                        "--orchestrator.fleet.replica-sets[0].attestation.platforms[0].rtmr0=" + "b2".repeat(48),
                        "--orchestrator.fleet.replica-sets[0].attestation.platforms[0].rtmr1=" + "c3".repeat(48),
                        "--orchestrator.fleet.replica-sets[0].attestation.platforms[0].rtmr2=" + "d4".repeat(48),
                        "--ORCHESTRATOR_ADMIN_PASSWORD=a-password-set-too-late", "--camunda.bpm.admin-user.password=admin")
                .close());
        forgetTheFailedContext();
        assertThat(failure).as("the application must not start").isNotNull();
        assertThat(NestedExceptionUtils.getMostSpecificCause(failure).getMessage())
                .contains("Refusing to start a production deployment")
                .contains("simulator.enabled is true")
                .contains("the admin 'admin' still logs in with a default password")
                .contains("no TLS: set server.ssl.*");
    }

    /**
     * The Camunda webapp starter keeps the application context in a static field that it clears only when a context
     * closes, and a context whose start was refused never does: the next test's context in this JVM would start its
     * webapp filters against this dead one. (A refused production start ends its JVM; only a test goes on.)
     */
    private static void forgetTheFailedContext() throws Exception {
        Field context = LazyInitRegistration.class.getDeclaredField("APPLICATION_CONTEXT");
        context.setAccessible(true);
        context.set(null, null);
    }
}
