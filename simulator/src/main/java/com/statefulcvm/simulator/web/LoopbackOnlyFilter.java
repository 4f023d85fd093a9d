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
import java.util.Collections;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The simulator's admin controls (crash a CVM, tamper its evidence, inject faults) take no login: they answer only a
 * client on this machine that comes directly, not through a proxy, and addresses this machine by name. Refused with
 * 403: a source address other than loopback; any header a proxy adds or a client claims an address with
 * ({@code Forwarded}, {@code X-Forwarded-*}, {@code X-Real-IP}, {@code Via}, ...: a proxy in front of this server may
 * set any of them, and none is believed); and a {@code Host} other than loopback's ({@code localhost},
 * {@code 127.x.x.x}, {@code [::1]}, with any port), which is what a page of another site sends when its name was
 * rebound to 127.0.0.1 (DNS rebinding) to reach these controls through the browser of someone on this machine.
 */
public class LoopbackOnlyFilter extends OncePerRequestFilter {

    private static final String BODY = "{\"detail\":\"the simulator's admin controls answer only on this machine (loopback), "
            + "never through a proxy, and only to a request for localhost, 127.0.0.1 or [::1]\"}";
    /** Headers that proxies add, or that clients send to claim another address. */
    private static final Set<String> PROXY_HEADERS = Set.of("forwarded", "via", "x-real-ip", "x-client-ip", "true-client-ip",
            "cf-connecting-ip", "fastly-client-ip", "x-cluster-client-ip", "x-original-forwarded-for", "x-proxyuser-ip",
            "client-ip", "x-originating-ip", "x-remote-ip", "x-remote-addr", "x-host", "x-original-host");
    private static final Pattern LOOPBACK_HOST = Pattern.compile(
            "(?i)(localhost|127(\\.(25[0-5]|2[0-4]\\d|1?\\d?\\d)){3}|\\[(::1|0{0,4}(:0{0,4}){6}:0{0,3}1)])(:\\d{1,5})?");

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (loopback(request.getRemoteAddr()) && !proxied(request) && loopbackHost(host(request))) {
            chain.doFilter(request, response);
            return;
        }
        response.setStatus(HttpServletResponse.SC_FORBIDDEN);
        response.setContentType(MediaType.APPLICATION_JSON_VALUE);
        response.setCharacterEncoding(StandardCharsets.UTF_8.name());
        response.getWriter().write(BODY);
    }

    static boolean proxied(HttpServletRequest request) {
        for (String name : Collections.list(request.getHeaderNames())) {
            String lower = name.toLowerCase(Locale.ROOT);
            if (lower.startsWith("x-forwarded") || PROXY_HEADERS.contains(lower)) {
                return true;
            }
        }
        return false;
    }

    /** The Host header; without one (HTTP/1.0, a mock request), the name the request was addressed to. */
    private static String host(HttpServletRequest request) {
        String host = request.getHeader("Host");
        return host != null ? host : request.getServerName();
    }

    /** One Host header naming loopback (HTTP/1.1 requires one; several are refused too). */
    static boolean loopbackHost(String host) {
        return host != null && LOOPBACK_HOST.matcher(host.strip()).matches();
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
