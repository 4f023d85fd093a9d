package com.statefulcvm.web.security;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import com.statefulcvm.web.servlet.ReplayedBodyRequest;
import org.springframework.web.filter.OncePerRequestFilter;

import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Wrong passwords slow down the client that sends them, never the account: the engine's own lock (which ten wrong
 * passwords from anyone made permanent for {@code admin}) is off (loginMaxAttempts, loginDelayBase in
 * application.yaml), and this counts failed logins per client address instead (the proxy's X-Forwarded-For only
 * from a trusted proxy, {@link TrustedProxies}), and within a client per user id. After {@code freeFailures} in a row
 * from a client, whatever user ids they named, the client is answered 429 with Retry-After, for a delay that doubles
 * with each further failure up to {@code maxDelay}, without its credentials being checked at all. A correct login
 * clears that client's failures for that user id only: a guesser who also knows one password (their own) cannot wipe
 * their guesses at another's. A failed login is a 401 to a request that carried credentials (HTTP basic on
 * /engine-rest, /api and the metrics) or to the webapps' login form (its {@code username}).
 */
final class LoginThrottle extends OncePerRequestFilter {

    static final String WEBAPP_LOGIN = "/camunda/api/admin/auth/user/";
    private static final int MAX_CLIENTS = 10_000;
    /** Of a webapp login's form body, read to learn the user id; a larger body is no login form and names nobody. */
    private static final int MAX_LOGIN_FORM = 16 * 1024;
    /** The user id of credentials that name none (another scheme, an unreadable header or form). */
    private static final String UNNAMED = "";

    private final SecurityProperties.LoginThrottle settings;
    private final Clock clock;
    private final Map<String, Failures> clients = new ConcurrentHashMap<>();

    LoginThrottle(SecurityProperties.LoginThrottle settings, Clock clock) {
        this.settings = settings;
        this.clock = clock;
    }

    /** A client's failed logins in a row, by the user id each named; their sum decides the wait. */
    private record Failures(Map<String, Integer> byUser, int count, Instant blockedUntil) {
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
        boolean webappLogin = isWebappLogin(request);
        if (!webappLogin && request.getHeader("Authorization") == null) {
            chain.doFilter(request, response);
            return;
        }
        String user;
        HttpServletRequest passed = request;
        if (webappLogin) {
            byte[] form = request.getInputStream().readNBytes(MAX_LOGIN_FORM + 1);
            user = form.length > MAX_LOGIN_FORM ? UNNAMED : formUser(form);
            passed = ReplayedBodyRequest.afterReading(request, form);
        } else {
            user = basicUser(request.getHeader("Authorization"));
        }
        chain.doFilter(passed, response);
        if (response.getStatus() == HttpServletResponse.SC_UNAUTHORIZED) {
            failed(client, user, now);
        } else if (response.getStatus() < 400 && failures != null) {
            succeeded(client, user);
        }
    }

    private static boolean isWebappLogin(HttpServletRequest request) {
        return "POST".equals(request.getMethod()) && request.getRequestURI().startsWith(WEBAPP_LOGIN);
    }

    /** The user id of HTTP basic credentials (never the password, which is dropped here). */
    static String basicUser(String authorization) {
        if (authorization == null || !authorization.regionMatches(true, 0, "Basic ", 0, 6)) {
            return UNNAMED;
        }
        try {
            String decoded = new String(Base64.getDecoder().decode(authorization.substring(6).trim()), StandardCharsets.UTF_8);
            int colon = decoded.indexOf(':');
            return colon < 0 ? UNNAMED : decoded.substring(0, colon);
        } catch (IllegalArgumentException notBase64) {
            return UNNAMED;
        }
    }

    /** The {@code username} of the webapps' login form (application/x-www-form-urlencoded). */
    static String formUser(byte[] form) {
        for (String pair : new String(form, StandardCharsets.UTF_8).split("&")) {
            int equals = pair.indexOf('=');
            if (equals > 0 && "username".equals(pair.substring(0, equals))) {
                try {
                    return URLDecoder.decode(pair.substring(equals + 1), StandardCharsets.UTF_8);
                } catch (IllegalArgumentException malformed) {
                    return UNNAMED;
                }
            }
        }
        return UNNAMED;
    }

    private void failed(String client, String user, Instant now) {
        if (clients.size() >= MAX_CLIENTS) {
            // a flood of addresses: forget those no longer waiting rather than grow without bound
            clients.values().removeIf(f -> f.blockedUntil() == null || !now.isBefore(f.blockedUntil()));
        }
        clients.compute(client, (c, previous) -> {
            Map<String, Integer> byUser = previous == null ? new HashMap<>() : new HashMap<>(previous.byUser());
            byUser.merge(user, 1, Integer::sum);
            int count = previous == null ? 1 : previous.count() + 1;
            int over = count - settings.getFreeFailures();
            if (over <= 0) {
                return new Failures(Map.copyOf(byUser), count, null);
            }
            long millis = settings.getFirstDelay().toMillis() << Math.min(over - 1, 30);
            Duration delay = Duration.ofMillis(Math.min(Math.max(millis, 0), settings.getMaxDelay().toMillis()));
            return new Failures(Map.copyOf(byUser), count, now.plus(delay));
        });
    }

    /** A correct login clears the client's failures for that user id, and no other's. */
    private void succeeded(String client, String user) {
        clients.computeIfPresent(client, (c, previous) -> {
            Integer own = previous.byUser().get(user);
            if (own == null) {
                return previous;
            }
            Map<String, Integer> byUser = new HashMap<>(previous.byUser());
            byUser.remove(user);
            return byUser.isEmpty() ? null : new Failures(Map.copyOf(byUser), previous.count() - own, previous.blockedUntil());
        });
    }
}
