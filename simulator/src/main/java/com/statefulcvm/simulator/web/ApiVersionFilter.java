package com.statefulcvm.simulator.web;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.MediaType;
import org.springframework.web.filter.OncePerRequestFilter;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.statefulcvm.simulator.cloud.ApiException;
import com.statefulcvm.simulator.version.ApiVersion;

/**
 * Resolves the API version of each call to {@code /simulator/api/v1/**} once, from {@code X-Phala-Version}
 * (absent: the newest), keeps it as a request attribute for {@link ApiViewsArgumentResolver}, and names it in the
 * answer's own {@code X-Phala-Version}. An unknown version is refused: 400 {@code {"detail": "Unsupported API
 * version ..."}}.
 */
public class ApiVersionFilter extends OncePerRequestFilter {

    /** The request attribute holding the resolved {@link ApiVersion}. */
    public static final String ATTRIBUTE = ApiVersion.class.getName();

    private final ObjectMapper json = new ObjectMapper();

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        ApiVersion version;
        try {
            version = ApiVersion.fromHeader(request.getHeader(ApiVersion.HEADER));
        } catch (ApiException refused) {
            response.setStatus(refused.status());
            response.setContentType(MediaType.APPLICATION_JSON_VALUE);
            response.setCharacterEncoding(StandardCharsets.UTF_8.name());
            response.getWriter().write(json.writeValueAsString(refused.body()));
            return;
        }
        request.setAttribute(ATTRIBUTE, version);
        response.setHeader(ApiVersion.HEADER, version.wireName());
        chain.doFilter(request, response);
    }
}
