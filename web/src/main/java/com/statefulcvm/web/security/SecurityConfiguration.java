package com.statefulcvm.web.security;

import org.camunda.bpm.engine.rest.security.auth.ProcessEngineAuthenticationFilter;
import org.camunda.bpm.engine.rest.security.auth.impl.HttpBasicAuthenticationProvider;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;

import java.time.Clock;

/**
 * The engine's REST API is open by default; it and our own API require HTTP basic auth against Camunda's
 * identities (our API also takes the webapps' session: {@link WebappSessionAuthentication}). The filter also makes the caller the engine's current user, so history records who started what and
 * the engine checks the caller's authorizations (camunda.bpm.authorization.enabled) on every call made for the
 * request, our controllers' included. Before it: a request a browser sends from another site is refused
 * ({@link BrowserOrigins}), and a client that sent too many wrong passwords waits ({@link LoginThrottle}); so nothing
 * about a request is answered before its caller is known (ApiRequestLimits comes right after it, before anything
 * reads a body). Every answer outside the webapps may be framed by this server's own pages only ({@link FramingHeaders}).
 */
@Configuration
@EnableConfigurationProperties(SecurityProperties.class)
public class SecurityConfiguration {

    public static final int AUTHENTICATION_ORDER = Ordered.HIGHEST_PRECEDENCE + 5;

    @Bean
    public FilterRegistrationBean<ProcessEngineAuthenticationFilter> basicAuthenticationFilter() {
        FilterRegistrationBean<ProcessEngineAuthenticationFilter> registration =
                new FilterRegistrationBean<>(new ProcessEngineAuthenticationFilter());
        registration.setName("orchestrator-basic-authentication");
        registration.addInitParameter(ProcessEngineAuthenticationFilter.AUTHENTICATION_PROVIDER_PARAM,
                HttpBasicAuthenticationProvider.class.getName());
        // the metrics too: they name sets, steps and users' procedures
        registration.addUrlPatterns("/engine-rest/*", "/actuator/prometheus");
        registration.setOrder(AUTHENTICATION_ORDER);
        return registration;
    }

    /** Our API: HTTP basic auth as above, or the webapps' session with its CSRF token (what our Cockpit plugins send). */
    @Bean
    public FilterRegistrationBean<WebappSessionAuthentication> apiAuthenticationFilter() {
        FilterRegistrationBean<WebappSessionAuthentication> registration = new FilterRegistrationBean<>(new WebappSessionAuthentication());
        registration.setName("orchestrator-api-authentication");
        registration.addInitParameter(ProcessEngineAuthenticationFilter.AUTHENTICATION_PROVIDER_PARAM,
                HttpBasicAuthenticationProvider.class.getName());
        registration.addUrlPatterns("/api/*");
        registration.setOrder(AUTHENTICATION_ORDER);
        return registration;
    }

    @Bean
    FilterRegistrationBean<LoginThrottle> loginThrottleFilter(SecurityProperties security) {
        FilterRegistrationBean<LoginThrottle> registration =
                new FilterRegistrationBean<>(new LoginThrottle(security.getLoginThrottle(), Clock.systemUTC()));
        registration.setName("orchestrator-login-throttle");
        registration.addUrlPatterns("/engine-rest/*", "/api/*", "/actuator/prometheus", LoginThrottle.WEBAPP_LOGIN + "*");
        registration.setOrder(AUTHENTICATION_ORDER - 1);
        return registration;
    }

    @Bean
    FilterRegistrationBean<BrowserOrigins> browserOriginsFilter(SecurityProperties security) {
        FilterRegistrationBean<BrowserOrigins> registration = new FilterRegistrationBean<>(new BrowserOrigins(security.getAllowedOrigins()));
        registration.setName("orchestrator-browser-origins");
        registration.addUrlPatterns("/engine-rest/*", "/api/*");
        registration.setOrder(AUTHENTICATION_ORDER - 2);
        return registration;
    }

    @Bean
    FilterRegistrationBean<FramingHeaders> framingHeadersFilter() {
        FilterRegistrationBean<FramingHeaders> registration = new FilterRegistrationBean<>(new FramingHeaders());
        registration.setName("orchestrator-framing-headers");
        registration.addUrlPatterns("/*");
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
        return registration;
    }
}
