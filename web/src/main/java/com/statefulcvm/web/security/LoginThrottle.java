package com.statefulcvm.web.security;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.web.filter.OncePerRequestFilter;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Wrong passwords slow down the client that sends them, never the account: the engine's own lock (which ten wrong
 * passwords from anyone made permanent for {@code admin}) is off (loginMaxAttempts, loginDelayBase in
 * application.yaml), and this counts failed logins per client address instead (the proxy's X-Forwarded-For only
 * from a trusted proxy, {@link TrustedProxies}). After {@code freeFailures} in a row the client is answered 429 with
 * Retry-After, for a delay that doubles with each further failure up to {@code maxDelay}, without its credentials being
 * checked at all; a correct login clears its count. A failed login is a 401 to a request that carried credentials
 * (HTTP basic on /engine-rest, /api and the metrics) or to the webapps' login form.
 */
final class LoginThrottle extends OncePerRequestFilter {

    static final String WEBAPP_LOGIN = "/camunda/api/admin/auth/user/";
    private static final int MAX_CLIENTS = 10_000;

    private final SecurityProperties.LoginThrottle settings;
    private final Clock clock;
    private final Map<String, Failures> clients = new ConcurrentHashMap<>();

    LoginThrottle(SecurityProperties.LoginThrottle settings, Clock clock) {
        this.settings = settings;
        this.clock = clock;
    }

    private record Failures(int count, Instant blockedUntil) {
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String client = request.getRemoteAddr();
        Instant now = clock.instant();
        Failures failures = clients.get(client);
        if (failures != null && failures.blockedUntil() != null && now.isBefore(failures.blockedUntil())) {
            long seconds = Math.max(1, Duration.between(now, failures.blockedUntil()).toSeconds() + 1);
            response.setHeader("Retry-After", Long.toString(seconds));
            JsonRefusal.write(response, 429, "Too Many Requests", failures.count() + " failed logins from " + client
                    + " in a row: try again in " + seconds + " s (the accounts are not locked)");
            return;
        }
        chain.doFilter(request, response);
        if (!isLogin(request)) {
            return;
        }
        if (response.getStatus() == HttpServletResponse.SC_UNAUTHORIZED) {
            failed(client, now);
        } else if (response.getStatus() < 400 && failures != null) {
            clients.remove(client);
        }
    }

    private static boolean isLogin(HttpServletRequest request) {
        return request.getHeader("Authorization") != null
                || "POST".equals(request.getMethod()) && request.getRequestURI().startsWith(WEBAPP_LOGIN);
    }

    private void failed(String client, Instant now) {
        if (clients.size() >= MAX_CLIENTS) {
            // a flood of addresses: forget those no longer waiting rather than grow without bound
            clients.values().removeIf(f -> f.blockedUntil() == null || !now.isBefore(f.blockedUntil()));
        }
        clients.compute(client, (c, previous) -> {
            int count = previous == null ? 1 : previous.count() + 1;
            int over = count - settings.getFreeFailures();
            if (over <= 0) {
                return new Failures(count, null);
            }
            long millis = settings.getFirstDelay().toMillis() << Math.min(over - 1, 30);
            Duration delay = Duration.ofMillis(Math.min(Math.max(millis, 0), settings.getMaxDelay().toMillis()));
            return new Failures(count, now.plus(delay));
        });
    }
}
