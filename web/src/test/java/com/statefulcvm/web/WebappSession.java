package com.statefulcvm.web;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.CookieManager;
import java.net.CookiePolicy;
import java.net.HttpCookie;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;

/**
 * A browser's session with the Camunda webapps, without the browser: the session cookie from logging in to Cockpit or
 * Tasklist, and the CSRF token the webapps hand out in the {@code XSRF-TOKEN} cookie and expect back in the
 * {@code X-XSRF-TOKEN} header on every modifying request. What Tasklist's forms and our Cockpit plugins send.
 */
public final class WebappSession {

    public static final String ENGINE_API = "/camunda/api/engine/engine/default";

    private final String base;
    private final CookieManager cookies = new CookieManager(null, CookiePolicy.ACCEPT_ALL);
    private final HttpClient client;

    private WebappSession(String base) {
        this.base = base;
        this.client = HttpClient.newBuilder().cookieHandler(cookies).followRedirects(HttpClient.Redirect.NEVER).build();
    }

    /** Logs {@code user} in to the webapp {@code app} (cockpit, tasklist) as its login page does. */
    public static WebappSession login(int port, String user, String password, String app) {
        WebappSession session = new WebappSession("http://localhost:" + port);
        session.get("/camunda/api/admin/auth/user/default");   // hands out the CSRF token
        HttpResponse<String> login = session.send(HttpRequest.newBuilder(session.uri("/camunda/api/admin/auth/user/default/login/" + app))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .header("X-XSRF-TOKEN", session.csrfToken())
                .POST(HttpRequest.BodyPublishers.ofString("username=" + encode(user) + "&password=" + encode(password))));
        if (login.statusCode() != 200) {
            throw new IllegalStateException("login of " + user + " to " + app + " answered " + login.statusCode() + ": " + login.body());
        }
        // the login starts a new session: its token comes with the next read
        session.get("/camunda/api/admin/auth/user/default");
        return session;
    }

    /** A client with no session at all. */
    public static WebappSession anonymous(int port) {
        return new WebappSession("http://localhost:" + port);
    }

    public HttpResponse<String> getWithHeader(String path, String header, String value) {
        return send(HttpRequest.newBuilder(uri(path)).header("Accept", "application/json").header(header, value).GET());
    }

    public HttpResponse<String> get(String path) {
        return send(HttpRequest.newBuilder(uri(path)).header("Accept", "application/json").GET());
    }

    /** A JSON POST with the session's CSRF token, as the webapps send it. */
    public HttpResponse<String> post(String path, String json) {
        return send(HttpRequest.newBuilder(uri(path)).header("Content-Type", "application/json").header("Accept", "application/json")
                .header("X-XSRF-TOKEN", csrfToken()).POST(HttpRequest.BodyPublishers.ofString(json)));
    }

    /** The same POST without the CSRF token: what a page of another site could make the browser send. */
    public HttpResponse<String> postWithoutCsrfToken(String path, String json) {
        return send(HttpRequest.newBuilder(uri(path)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)));
    }

    String csrfToken() {
        return cookies.getCookieStore().getCookies().stream().filter(c -> "XSRF-TOKEN".equals(c.getName()))
                .map(HttpCookie::getValue).reduce((first, second) -> second).orElse("");
    }

    private URI uri(String path) {
        return URI.create(base + path);
    }

    private HttpResponse<String> send(HttpRequest.Builder request) {
        try {
            return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8);
    }
}
