package com.statefulcvm.web.security;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.web.filter.OncePerRequestFilter;

import java.io.IOException;
import java.net.URI;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A browser on another site must not make a logged-in operator's browser change anything here: /api's bodyless POSTs
 * (pause, abort, heal, failover) are requests a foreign page may send with the browser's cached credentials. A
 * changing request (anything but GET, HEAD, OPTIONS) that a browser marks as coming from another origin
 * ({@code Origin}, or {@code Sec-Fetch-Site: cross-site|same-site}) is refused with 403, unless the origin is this
 * server's own (the fleet page) or listed in {@code orchestrator.security.allowed-origins}. Clients that are no browser
 * (curl, scripts, the SDK) send neither header and are not affected.
 */
final class BrowserOrigins extends OncePerRequestFilter {

    private static final Set<String> SAFE = Set.of("GET", "HEAD", "OPTIONS", "TRACE");

    private final List<String> allowed;

    BrowserOrigins(List<String> allowed) {
        this.allowed = allowed.stream().map(BrowserOrigins::normalized).toList();
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (SAFE.contains(request.getMethod())) {
            chain.doFilter(request, response);
            return;
        }
        String origin = request.getHeader("Origin");
        String site = request.getHeader("Sec-Fetch-Site");
        String own = normalized(request.getScheme() + "://" + request.getHeader("Host"));
        boolean foreign;
        if (origin != null) {
            // "null": a sandboxed frame or a local file, never this server's page
            foreign = "null".equals(origin) || !(normalized(origin).equals(own) || allowed.contains(normalized(origin)));
        } else {
            foreign = "cross-site".equalsIgnoreCase(site) || "same-site".equalsIgnoreCase(site);
        }
        if (foreign) {
            JsonRefusal.write(response, HttpServletResponse.SC_FORBIDDEN, "Forbidden", "a request from the page of another site ("
                    + (origin != null ? origin : "Sec-Fetch-Site: " + site) + ") may not change anything here; this server's own "
                    + "pages may, and the origins in orchestrator.security.allowed-origins");
            return;
        }
        chain.doFilter(request, response);
    }

    /** scheme://host[:port], lower-case, the scheme's default port left out. */
    static String normalized(String origin) {
        try {
            URI uri = URI.create(origin.strip());
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            String host = uri.getHost() == null ? "" : uri.getHost().toLowerCase(Locale.ROOT);
            int port = uri.getPort();
            boolean defaultPort = port == -1 || "http".equals(scheme) && port == 80 || "https".equals(scheme) && port == 443;
            return scheme + "://" + host + (defaultPort ? "" : ":" + port);
        } catch (IllegalArgumentException unparsable) {
            return "unparsable:" + origin;
        }
    }
}
