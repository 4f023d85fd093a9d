package com.statefulcvm.web.security;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.rest.security.auth.ProcessEngineAuthenticationFilter;
import org.camunda.bpm.webapp.impl.security.auth.AuthenticationUtil;
import org.camunda.bpm.webapp.impl.security.auth.Authentications;
import org.camunda.bpm.webapp.impl.security.auth.UserAuthentication;
import org.camunda.bpm.webapp.impl.security.filter.util.CsrfConstants;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Set;

/**
 * Who calls our {@code /api}: a script with HTTP basic auth, or an operator in Cockpit (our plugins) with the session
 * the webapps' login gave them. A request with an {@code Authorization} header is authenticated by basic auth alone,
 * as before. Without one, the webapps' session counts: the user logged in to the default engine, checked against the
 * engine's authorizations like any other caller; and because a browser sends the session cookie with requests other
 * sites make it send, every modifying request must also carry the session's CSRF token in {@code X-XSRF-TOKEN} (what
 * the webapps hand out in the {@code XSRF-TOKEN} cookie and check on their own API), or it is refused 403.
 * <p>
 * A plugin's request whose session has ended (it sends {@code X-XSRF-TOKEN}) gets a plain 401 without a basic-auth
 * challenge, so the browser shows Cockpit's own login instead of its password dialog.
 */
public class WebappSessionAuthentication extends ProcessEngineAuthenticationFilter {

    static final String ENGINE = "default";
    private static final Set<String> SAFE_METHODS = Set.of("GET", "HEAD", "OPTIONS");

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain) throws IOException, ServletException {
        HttpServletRequest http = (HttpServletRequest) request;
        HttpServletResponse answer = (HttpServletResponse) response;
        if (http.getHeader("Authorization") != null) {
            super.doFilter(request, response, chain);
            return;
        }
        HttpSession session = http.getSession(false);
        UserAuthentication user = session == null ? null : loggedIn(session);
        if (user == null) {
            if (http.getHeader(CsrfConstants.CSRF_TOKEN_HEADER_NAME) != null) {
                refuse(answer, HttpServletResponse.SC_UNAUTHORIZED, "not logged in: log in to Cockpit again");
                return;
            }
            super.doFilter(request, response, chain);
            return;
        }
        if (!SAFE_METHODS.contains(http.getMethod()) && !csrfTokenMatches(http, session)) {
            refuse(answer, HttpServletResponse.SC_FORBIDDEN, "the request lacks this session's CSRF token (X-XSRF-TOKEN): "
                    + "requests authenticated by the webapps' session must come from Cockpit or Tasklist; reload the page");
            return;
        }
        ProcessEngine engine = getAddressedEngine(ENGINE);
        try {
            // groups and tenants as they are now, not as they were at login
            setAuthenticatedUser(engine, user.getIdentityId(), null, null);
            chain.doFilter(request, response);
        } finally {
            clearAuthentication(engine);
        }
    }

    private static UserAuthentication loggedIn(HttpSession session) {
        Authentications all;
        try {
            all = AuthenticationUtil.getAuthsFromSession(session);
        } catch (IllegalStateException invalidated) {
            return null;
        }
        return all.getAuthenticationForProcessEngine(ENGINE) instanceof UserAuthentication user && user.getIdentityId() != null
                ? user : null;
    }

    private static boolean csrfTokenMatches(HttpServletRequest request, HttpSession session) {
        String sent = request.getHeader(CsrfConstants.CSRF_TOKEN_HEADER_NAME);
        Object expected = session.getAttribute(CsrfConstants.CSRF_TOKEN_SESSION_ATTR_NAME);
        return sent != null && !sent.isBlank() && expected instanceof String token
                && MessageDigest.isEqual(sent.getBytes(StandardCharsets.UTF_8), token.getBytes(StandardCharsets.UTF_8));
    }

    private static void refuse(HttpServletResponse response, int status, String message) throws IOException {
        response.setStatus(status);
        response.setContentType("application/json");
        response.setCharacterEncoding("UTF-8");
        response.getWriter().write("{\"status\":" + status + ",\"message\":\"" + message.replace("\"", "'") + "\"}");
    }
}
