package com.statefulcvm.simulator.web;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.MediaType;
import org.springframework.web.filter.OncePerRequestFilter;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;

/**
 * The simulator's admin controls (crash a CVM, tamper its evidence, inject faults) take no login: they answer only a
 * client on this machine that comes directly, not through a proxy (a request a proxy forwards carries
 * {@code Forwarded} or {@code X-Forwarded-For}, and its source address is the proxy's). Anyone else gets 403.
 */
public class LoopbackOnlyFilter extends OncePerRequestFilter {

    private static final String BODY = "{\"detail\":\"the simulator's admin controls answer only on this machine (loopback), "
            + "never through a proxy\"}";

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (loopback(request.getRemoteAddr()) && request.getHeader("Forwarded") == null && request.getHeader("X-Forwarded-For") == null) {
            chain.doFilter(request, response);
            return;
        }
        response.setStatus(HttpServletResponse.SC_FORBIDDEN);
        response.setContentType(MediaType.APPLICATION_JSON_VALUE);
        response.setCharacterEncoding(StandardCharsets.UTF_8.name());
        response.getWriter().write(BODY);
    }

    static boolean loopback(String address) {
        if (address == null || !address.matches("[0-9.]+|[0-9a-fA-F:%.]+")) {
            return false;
        }
        try {
            return InetAddress.getByName(address).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }
}
