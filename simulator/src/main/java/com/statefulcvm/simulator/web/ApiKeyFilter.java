package com.statefulcvm.simulator.web;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.MediaType;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Guards {@code /simulator/api/v1/**}: a call must carry {@code X-API-Key}, equal to the configured key when one is
 * set, else 401 {@code {"detail":"Missing or invalid API key"}}. The key is never logged.
 */
public class ApiKeyFilter extends OncePerRequestFilter {

    static final String HEADER = "X-API-Key";
    private static final String BODY = "{\"detail\":\"Missing or invalid API key\"}";

    private final String requiredKey;

    /** @param requiredKey the only accepted key, or null to accept any non-empty key */
    public ApiKeyFilter(String requiredKey) {
        this.requiredKey = requiredKey;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (accepts(request.getHeader(HEADER))) {
            chain.doFilter(request, response);
            return;
        }
        response.setStatus(HttpServletResponse.SC_UNAUTHORIZED);
        response.setContentType(MediaType.APPLICATION_JSON_VALUE);
        response.setCharacterEncoding(StandardCharsets.UTF_8.name());
        response.getWriter().write(BODY);
    }

    private boolean accepts(String key) {
        if (key == null || key.isBlank()) {
            return false;
        }
        return requiredKey == null || MessageDigest.isEqual(key.getBytes(StandardCharsets.UTF_8),
                requiredKey.getBytes(StandardCharsets.UTF_8));
    }
}
