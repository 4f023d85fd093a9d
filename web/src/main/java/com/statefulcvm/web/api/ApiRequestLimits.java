package com.statefulcvm.web.api;

import com.statefulcvm.web.config.OrchestratorProperties;
import com.statefulcvm.web.security.JsonRefusal;
import com.statefulcvm.web.security.SecurityConfiguration;
import com.statefulcvm.web.security.SecurityProperties;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.filter.OncePerRequestFilter;

import java.io.IOException;

/**
 * Bodies sent to /api/* are small JSON documents; a larger one is refused with 413 and a message, before anything
 * reads it when it declares its length, and as soon as it passes the limit when it is sent in chunks
 * ({@code orchestrator.api.max-request-size}, 512 KiB by default). A multipart body is refused with 415 here: Spring
 * MVC would otherwise try to parse it before any controller, and answer a malformed one with 500. The engine's REST
 * API and the webapps' API have a limit of their own ({@code orchestrator.security.max-engine-request-size}, 2 MiB),
 * and their resources that read multipart bodies (attachments, deployments, binary variables) are refused anything
 * else with 415, where the engine answered 500.
 */
@Configuration
class ApiRequestLimits {

    /** Thrown by the request's stream past the limit; the body reader wraps it, ApiExceptionHandler answers 413. */
    static final class TooLarge extends IOException {
        TooLarge(long limit, String where) {
            super(message(limit, where));
        }
    }

    /** The engine's resources that read multipart/form-data: attachments, deployments, binary variables. */
    private static final java.util.regex.Pattern TAKES_MULTIPART = java.util.regex.Pattern.compile(
            "/(attachment/create|deployment/create|variables/[^/]+/data)$");

    static String message(long limit, String where) {
        return "request body larger than " + limit + " bytes (" + (limit / 1024) + " KiB), the limit of " + where;
    }

    @Bean
    FilterRegistrationBean<OncePerRequestFilter> apiRequestLimitsFilter(OrchestratorProperties properties) {
        FilterRegistrationBean<OncePerRequestFilter> registration = new FilterRegistrationBean<>(
                limit(properties.getApi().getMaxRequestSize().toBytes(), "/api/*", true));
        registration.setName("api-request-limits");
        registration.addUrlPatterns("/api/*");
        // after authentication (an unknown caller learns nothing), before anything reads the body (FormContentFilter)
        registration.setOrder(SecurityConfiguration.AUTHENTICATION_ORDER + 1);
        return registration;
    }

    /**
     * The engine's REST API and the webapps' own API take deployments (multipart) and form submissions, never bodies
     * of megabytes: a variable of 18 MB, three times, grew an H2 file by 128 MB.
     */
    @Bean
    FilterRegistrationBean<OncePerRequestFilter> engineRequestLimitsFilter(SecurityProperties security) {
        String where = "/engine-rest and /camunda/api (orchestrator.security.max-engine-request-size)";
        FilterRegistrationBean<OncePerRequestFilter> registration = new FilterRegistrationBean<>(
                limit(security.getMaxEngineRequestSize().toBytes(), where, false));
        registration.setName("engine-request-limits");
        registration.addUrlPatterns("/engine-rest/*", "/camunda/api/*");
        registration.setOrder(SecurityConfiguration.AUTHENTICATION_ORDER + 1);
        return registration;
    }

    private static OncePerRequestFilter limit(long limit, String where, boolean refuseMultipart) {
        return new OncePerRequestFilter() {
            @Override
            protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
                    throws ServletException, IOException {
                if (request.getContentLengthLong() > limit) {
                    refuse(response, 413, "Payload Too Large", message(limit, where));
                    return;
                }
                String type = request.getContentType();
                boolean multipart = type != null && type.toLowerCase(java.util.Locale.ROOT).startsWith("multipart/form-data");
                if (refuseMultipart && type != null && type.toLowerCase(java.util.Locale.ROOT).startsWith("multipart/")) {
                    refuse(response, 415, "Unsupported Media Type", "send Content-Type: application/json");
                    return;
                }
                if (!refuseMultipart && !multipart && "POST".equals(request.getMethod())
                        && TAKES_MULTIPART.matcher(request.getRequestURI()).find()) {
                    // the engine's resource would fail to read its parts and answer 500
                    refuse(response, 415, "Unsupported Media Type", request.getRequestURI().replaceAll(".*/", "")
                            + " takes a multipart/form-data body (Content-Type was " + (type == null ? "none" : type) + ")");
                    return;
                }
                chain.doFilter(new Limited(request, limit, where), response);
            }
        };
    }

    private static void refuse(HttpServletResponse response, int status, String error, String message) throws IOException {
        JsonRefusal.write(response, status, error, message);
    }

    private static final class Limited extends HttpServletRequestWrapper {

        private final long limit;
        private final String where;
        private ServletInputStream stream;

        Limited(HttpServletRequest request, long limit, String where) {
            super(request);
            this.limit = limit;
            this.where = where;
        }

        @Override
        public ServletInputStream getInputStream() throws IOException {
            if (stream == null) {
                stream = new Counting(super.getInputStream(), limit, where);
            }
            return stream;
        }
    }

    private static final class Counting extends ServletInputStream {

        private final ServletInputStream in;
        private final long limit;
        private final String where;
        private long read;

        Counting(ServletInputStream in, long limit, String where) {
            this.in = in;
            this.limit = limit;
            this.where = where;
        }

        @Override
        public int read() throws IOException {
            int b = in.read();
            if (b >= 0) {
                count(1);
            }
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            int n = in.read(buffer, offset, length);
            if (n > 0) {
                count(n);
            }
            return n;
        }

        private void count(int n) throws TooLarge {
            read += n;
            if (read > limit) {
                throw new TooLarge(limit, where);
            }
        }

        @Override
        public boolean isFinished() {
            return in.isFinished();
        }

        @Override
        public boolean isReady() {
            return in.isReady();
        }

        @Override
        public void setReadListener(ReadListener listener) {
            in.setReadListener(listener);
        }
    }
}
