package com.statefulcvm.simulator;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.core.Ordered;

import com.statefulcvm.simulator.cloud.FaultInjector;
import com.statefulcvm.simulator.cloud.SimulatedCloud;
import com.statefulcvm.simulator.web.AdminController;
import com.statefulcvm.simulator.web.ApiExceptionHandler;
import com.statefulcvm.simulator.web.ApiKeyFilter;
import com.statefulcvm.simulator.web.ApiPaths;
import com.statefulcvm.simulator.web.AppController;
import com.statefulcvm.simulator.web.CvmController;
import com.statefulcvm.simulator.web.CvmOperationsController;
import com.statefulcvm.simulator.web.FaultFilter;
import com.statefulcvm.simulator.web.GatewayController;

/**
 * Serves the simulated Phala Cloud inside any servlet application that sets {@code simulator.enabled=true}:
 * the API under {@code /simulator/api/v1}, the gateway under {@code /simulator/gateway}, the admin endpoints under
 * {@code /simulator/_admin}. Everything is registered here; nothing relies on the host's component scan.
 */
@AutoConfiguration
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnProperty(prefix = "simulator", name = "enabled", havingValue = "true")
@EnableConfigurationProperties(SimulatorProperties.class)
@Import({CvmController.class, CvmOperationsController.class, AppController.class, GatewayController.class,
    AdminController.class, ApiExceptionHandler.class})
public class SimulatorAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    public SimulatedCloud simulatedCloud(SimulatorProperties properties) {
        return new SimulatedCloud(properties);
    }

    @Bean
    @ConditionalOnMissingBean
    public FaultInjector simulatorFaultInjector() {
        return new FaultInjector();
    }

    @Bean
    public FilterRegistrationBean<ApiKeyFilter> simulatorApiKeyFilter(SimulatorProperties properties) {
        FilterRegistrationBean<ApiKeyFilter> registration =
                new FilterRegistrationBean<>(new ApiKeyFilter(properties.requiredApiKey()));
        registration.setName("simulatorApiKeyFilter");
        registration.addUrlPatterns(ApiPaths.API + "/*");
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 50);
        return registration;
    }

    @Bean
    public FilterRegistrationBean<FaultFilter> simulatorFaultFilter(FaultInjector faults) {
        FilterRegistrationBean<FaultFilter> registration = new FilterRegistrationBean<>(new FaultFilter(faults));
        registration.setName("simulatorFaultFilter");
        registration.addUrlPatterns(ApiPaths.API + "/*");
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 51);
        return registration;
    }
}
