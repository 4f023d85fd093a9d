package com.statefulcvm.simulator;

import java.time.Clock;
import java.util.List;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.core.Ordered;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

import com.statefulcvm.simulator.backend.ProcessBackends;
import com.statefulcvm.simulator.cloud.FaultInjector;
import com.statefulcvm.simulator.cloud.SimulatedCloud;
import com.statefulcvm.simulator.evidence.SimulatedCollateral;
import com.statefulcvm.simulator.evidence.SimulatedGuestAgent;
import com.statefulcvm.simulator.evidence.SimulatedPccs;
import com.statefulcvm.simulator.evidence.SimulatedTdxAuthority;
import com.statefulcvm.simulator.web.AccountController;
import com.statefulcvm.simulator.web.AdminController;
import com.statefulcvm.simulator.web.ApiExceptionHandler;
import com.statefulcvm.simulator.web.ApiKeyFilter;
import com.statefulcvm.simulator.web.ApiPaths;
import com.statefulcvm.simulator.web.ApiVersionFilter;
import com.statefulcvm.simulator.web.ApiViewsArgumentResolver;
import com.statefulcvm.simulator.web.AppController;
import com.statefulcvm.simulator.web.CvmController;
import com.statefulcvm.simulator.web.CvmOperationsController;
import com.statefulcvm.simulator.web.FaultFilter;
import com.statefulcvm.simulator.web.GatewayBackendFilter;
import com.statefulcvm.simulator.web.GatewayController;
import com.statefulcvm.simulator.web.KmsController;
import com.statefulcvm.simulator.web.LoopbackOnlyFilter;
import com.statefulcvm.simulator.web.RequestJournal;
import com.statefulcvm.simulator.web.RequestJournalFilter;
import com.statefulcvm.simulator.web.SimulatedConsulController;
import com.statefulcvm.simulator.web.SimulatedEtcdController;
import com.statefulcvm.simulator.web.SimulatedHoldbackAgentController;
import com.statefulcvm.simulator.web.SimulatedPatroniController;

/**
 * Serves the simulated Phala Cloud inside any servlet application that sets {@code simulator.enabled=true}:
 * the API under {@code /simulator/api/v1}, the gateway under {@code /simulator/gateway} (with simulated Patroni, Consul
 * and etcd APIs behind it), the admin endpoints under
 * {@code /simulator/_admin} (this machine only, {@link LoopbackOnlyFilter}); simulated CVMs may be backed by real local processes ({@link ProcessBackends}).
 * Everything is registered here; nothing relies on the host's component scan. Each API
 * call is answered in the version its {@code X-Phala-Version} names ({@link ApiVersionFilter}).
 */
@AutoConfiguration
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnProperty(prefix = "simulator", name = "enabled", havingValue = "true")
@EnableConfigurationProperties(SimulatorProperties.class)
@Import({CvmController.class, CvmOperationsController.class, AppController.class, AccountController.class,
    KmsController.class,
    GatewayController.class, SimulatedPatroniController.class, SimulatedConsulController.class,
    SimulatedEtcdController.class, SimulatedHoldbackAgentController.class, AdminController.class, ApiExceptionHandler.class, SimulatedPccs.class})
public class SimulatorAutoConfiguration {

    /** The simulated CVMs backed by real local processes ({@code simulator.backends}); none by default. */
    @Bean
    @ConditionalOnMissingBean
    public ProcessBackends simulatorProcessBackends(SimulatorProperties properties) {
        return new ProcessBackends(properties.getBackends());
    }

    @Bean
    @ConditionalOnMissingBean
    public SimulatedCloud simulatedCloud(SimulatorProperties properties, ProcessBackends backends) {
        SimulatedCloud cloud = new SimulatedCloud(properties, Clock.systemUTC(), backends);
        // CVMs that run in the loaded state file: their processes must run too (start commands are idempotent)
        backends.startRunning(cloud.runningCvmNames());
        return cloud;
    }

    @Bean
    @ConditionalOnMissingBean
    public FaultInjector simulatorFaultInjector() {
        return new FaultInjector();
    }

    /**
     * The simulated attestation PKI: new keys and certificates at every start; its root is the trust anchor (its key
     * derived from {@code simulator.authority-seed} when that is set).
     */
    @Bean
    @ConditionalOnMissingBean
    public SimulatedTdxAuthority simulatedTdxAuthority(SimulatorProperties properties) {
        return new SimulatedTdxAuthority(java.time.Clock.systemUTC(), properties.getAuthoritySeed());
    }

    @Bean
    @ConditionalOnMissingBean
    public SimulatedCollateral simulatedCollateral(SimulatedTdxAuthority authority) {
        return new SimulatedCollateral(authority);
    }

    @Bean
    @ConditionalOnMissingBean
    public SimulatedGuestAgent simulatedGuestAgent(SimulatedCloud cloud, SimulatedTdxAuthority authority) {
        return new SimulatedGuestAgent(cloud, authority);
    }

    /** Every API call received; also appended to {@code simulator.request-journal} when that is set. */
    @Bean
    @ConditionalOnMissingBean
    public RequestJournal simulatorRequestJournal(SimulatorProperties properties) {
        return new RequestJournal(properties.getRequestJournal());
    }

    @Bean
    public FilterRegistrationBean<RequestJournalFilter> simulatorRequestJournalFilter(RequestJournal journal) {
        FilterRegistrationBean<RequestJournalFilter> registration =
                new FilterRegistrationBean<>(new RequestJournalFilter(journal));
        registration.setName("simulatorRequestJournalFilter");
        registration.addUrlPatterns(ApiPaths.API + "/*");
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 49);
        return registration;
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

    /** The admin controls take no login: this machine only. */
    @Bean
    public FilterRegistrationBean<LoopbackOnlyFilter> simulatorAdminLoopbackFilter() {
        FilterRegistrationBean<LoopbackOnlyFilter> registration = new FilterRegistrationBean<>(new LoopbackOnlyFilter());
        registration.setName("simulatorAdminLoopbackFilter");
        registration.addUrlPatterns(ApiPaths.ADMIN + "/*");
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 49);
        return registration;
    }

    @Bean
    public FilterRegistrationBean<ApiVersionFilter> simulatorApiVersionFilter() {
        FilterRegistrationBean<ApiVersionFilter> registration = new FilterRegistrationBean<>(new ApiVersionFilter());
        registration.setName("simulatorApiVersionFilter");
        registration.addUrlPatterns(ApiPaths.API + "/*");
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 52);
        return registration;
    }

    /** Gives the simulator's controllers the caller's {@code ApiViews}; any other parameter type is left alone. */
    @Bean
    public WebMvcConfigurer simulatorApiViewsResolver() {
        return new WebMvcConfigurer() {
            @Override
            public void addArgumentResolvers(List<HandlerMethodArgumentResolver> resolvers) {
                resolvers.add(new ApiViewsArgumentResolver());
            }
        };
    }

    /** Proxies the gateway routes of backed CVMs to their local processes; does nothing without backends. */
    @Bean
    public FilterRegistrationBean<GatewayBackendFilter> simulatorGatewayBackendFilter(SimulatedCloud cloud,
            ProcessBackends backends) {
        FilterRegistrationBean<GatewayBackendFilter> registration =
                new FilterRegistrationBean<>(new GatewayBackendFilter(cloud, backends));
        registration.setName("simulatorGatewayBackendFilter");
        registration.addUrlPatterns(ApiPaths.GATEWAY + "/*");
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 54);
        return registration;
    }

    @Bean
    public FilterRegistrationBean<FaultFilter> simulatorFaultFilter(FaultInjector faults) {
        FilterRegistrationBean<FaultFilter> registration = new FilterRegistrationBean<>(new FaultFilter(faults));
        registration.setName("simulatorFaultFilter");
        registration.addUrlPatterns(ApiPaths.API + "/*");
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 53);
        return registration;
    }
}
