package com.statefulcvm.web.security;

import com.statefulcvm.delegates.rollout.TaskDecisionRefused;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.util.ContentCachingResponseWrapper;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * The engine wraps every task-listener exception, so the REST API answers 500 when our listeners refuse an
 * operator's answer (an unknown decision, an approval that is not a boolean). That is the caller's mistake, not a
 * server fault: answer 400 with the same message, so scripts do not retry it and Tasklist shows it as a refusal.
 */
@Configuration
class RefusedTaskCompletionStatus {

    @Bean
    FilterRegistrationBean<OncePerRequestFilter> refusedTaskCompletionFilter() {
        FilterRegistrationBean<OncePerRequestFilter> registration = new FilterRegistrationBean<>(new OncePerRequestFilter() {
            @Override
            protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
                    throws ServletException, IOException {
                if (!isTaskCompletion(request)) {
                    chain.doFilter(request, response);
                    return;
                }
                ContentCachingResponseWrapper wrapper = new ContentCachingResponseWrapper(response);
                chain.doFilter(request, wrapper);
                if (wrapper.getStatus() == 500
                        && new String(wrapper.getContentAsByteArray(), StandardCharsets.UTF_8).contains(TaskDecisionRefused.MARKER)) {
                    wrapper.setStatus(400);
                }
                wrapper.copyBodyToResponse();
            }
        });
        registration.setName("refused-task-completion-status");
        registration.addUrlPatterns("/engine-rest/task/*");
        return registration;
    }

    private static boolean isTaskCompletion(HttpServletRequest request) {
        String uri = request.getRequestURI();
        return "POST".equals(request.getMethod()) && (uri.endsWith("/complete") || uri.endsWith("/submit-form"));
    }
}
