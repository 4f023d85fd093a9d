package com.statefulcvm.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.bind.validation.BindValidationException;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;

import com.statefulcvm.simulator.cloud.FaultInjector;
import com.statefulcvm.simulator.cloud.SimulatedCloud;
import com.statefulcvm.simulator.web.AdminController;
import com.statefulcvm.simulator.web.CvmController;
import com.statefulcvm.simulator.web.GatewayController;

class SimulatorAutoConfigurationTest {

    private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(SimulatorAutoConfiguration.class));

    @Test
    void offUnlessEnabled() {
        runner.run(context -> assertThat(context).doesNotHaveBean(SimulatedCloud.class)
                .doesNotHaveBean(CvmController.class));
        runner.withPropertyValues("simulator.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(SimulatedCloud.class));
    }

    @Test
    void enabledRegistersEverythingWithoutComponentScan() {
        runner.withPropertyValues("simulator.enabled=true", "simulator.timings.update-ms=42")
                .run(context -> {
                    assertThat(context).hasSingleBean(SimulatedCloud.class)
                            .hasSingleBean(FaultInjector.class)
                            .hasSingleBean(CvmController.class)
                            .hasSingleBean(GatewayController.class)
                            .hasSingleBean(AdminController.class);
                    assertThat(context.getBean(SimulatorProperties.class).getTimings().getUpdateMs()).isEqualTo(42);
                    assertThat(context.getBean(SimulatorProperties.class).getGatewayBaseDomain())
                            .isEqualTo("sim.phala.local");
                });
    }

    @Test
    void invalidSettingsFailTheStart() {
        runner.withPropertyValues("simulator.enabled=true", "simulator.timings.create-ms=-5")
                .run(context -> assertThat(context).getFailure().rootCause()
                        .isInstanceOf(BindValidationException.class)
                        .hasMessageContaining("simulator.timings.createMs must be >= 0"));
        runner.withPropertyValues("simulator.enabled=true", "simulator.gateway-base-domain= ")
                .run(context -> assertThat(context).getFailure().rootCause()
                        .hasMessageContaining("gateway-base-domain must not be blank"));
    }

    @Test
    void notInANonWebApplication() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(SimulatorAutoConfiguration.class))
                .withPropertyValues("simulator.enabled=true")
                .run(context -> assertThat(context).doesNotHaveBean(SimulatedCloud.class));
    }
}
