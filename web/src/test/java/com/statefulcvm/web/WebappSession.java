package com.statefulcvm.web;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.CookieManager;
import java.net.HttpCookie;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A user logged in to Tasklist as a browser is: the webapp's session cookie and its CSRF token (cookie XSRF-TOKEN,
 * sent back as the header X-XSRF-TOKEN), calling the engine through the webapp's own REST paths
 * ({@code /camunda/api/engine/engine/default/...}), as Tasklist's pages do.
 */
final class WebappSession {

    private final String base;
    private final CookieManager cookies = new CookieManager();
    private final HttpClient client;

    private WebappSession(String base) {
        this.base = base;
        this.client = HttpClient.newBuilder().cookieHandler(cookies).connectTimeout(Duration.ofSeconds(10)).build();
    }

    static WebappSession login(int port, String user, String password) {
        WebappSession session = new WebappSession("http://127.0.0.1:" + port);
        session.send("GET", "/camunda/app/tasklist/default/", null, null);
        HttpResponse<String> login = session.send("POST", "/camunda/api/admin/auth/user/default/login/tasklist",
                "username=" + URLEncoder.encode(user, StandardCharsets.UTF_8) + "&password=" + URLEncoder.encode(password, StandardCharsets.UTF_8),
                "application/x-www-form-urlencoded");
        assertThat(login.statusCode()).as("Tasklist login of " + user + ": " + login.body()).isEqualTo(200);
        // the login starts a new session, with a CSRF token of its own
        session.send("GET", "/camunda/api/admin/auth/user/default", null, null);
        return session;
    }

    /** A JSON POST through the webapp's engine API: {@code path} below {@code /camunda/api/engine/engine/default}. */
    HttpResponse<String> postEngine(String path, String json) {
        return send("POST", "/camunda/api/engine/engine/default" + path, json, "application/json");
    }

    private HttpResponse<String> send(String method, String path, String body, String contentType) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (contentType != null) {
            request.header("Content-Type", contentType);
        }
        String token = token();
        if (token != null) {
            request.header("X-XSRF-TOKEN", token);
        }
        try {
            return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private String token() {
        return cookies.getCookieStore().getCookies().stream().filter(c -> "XSRF-TOKEN".equals(c.getName()))
                .map(HttpCookie::getValue).findFirst().orElse(null);
    }
}
