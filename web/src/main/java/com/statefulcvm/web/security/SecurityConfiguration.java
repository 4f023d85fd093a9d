package com.statefulcvm.web.security;

import org.camunda.bpm.engine.rest.security.auth.ProcessEngineAuthenticationFilter;
import org.camunda.bpm.engine.rest.security.auth.impl.HttpBasicAuthenticationProvider;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The engine's REST API is open by default; it and our own API require HTTP basic auth against Camunda's
 * identities. The filter also makes the caller the engine's current user, so history records who started what.
 */
@Configuration
public class SecurityConfiguration {

    @Bean
    public FilterRegistrationBean<ProcessEngineAuthenticationFilter> basicAuthenticationFilter() {
        FilterRegistrationBean<ProcessEngineAuthenticationFilter> registration =
                new FilterRegistrationBean<>(new ProcessEngineAuthenticationFilter());
        registration.setName("orchestrator-basic-authentication");
        registration.addInitParameter(ProcessEngineAuthenticationFilter.AUTHENTICATION_PROVIDER_PARAM,
                HttpBasicAuthenticationProvider.class.getName());
        registration.addUrlPatterns("/engine-rest/*", "/api/*");
        return registration;
    }
}
