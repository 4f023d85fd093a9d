package com.statefulcvm.web.security;

import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Which browser requests may change something: this server's own pages and the allowed origins only. */
class BrowserOriginsTest {

    private final BrowserOrigins origins = new BrowserOrigins(List.of("https://cockpit.example.org"));

    private int post(String origin, String site) throws Exception {
        MockHttpServletRequest request = new MockHttpServletRequest("POST", "/api/rollouts/x/abort");
        request.setScheme("http");
        request.addHeader("Host", "127.0.0.1:8080");
        if (origin != null) {
            request.addHeader("Origin", origin);
        }
        if (site != null) {
            request.addHeader("Sec-Fetch-Site", site);
        }
        MockHttpServletResponse response = new MockHttpServletResponse();
        origins.doFilter(request, response, new MockFilterChain());
        return response.getStatus();
    }

    @Test
    void ownPagesAllowedOriginsAndNonBrowsersPassOthersAre403() throws Exception {
        assertThat(post("http://127.0.0.1:8080", "same-origin")).as("the fleet page").isEqualTo(200);
        assertThat(post("HTTP://127.0.0.1:8080/", null)).isEqualTo(200);
        assertThat(post("https://cockpit.example.org:443", null)).as("listed").isEqualTo(200);
        assertThat(post(null, null)).as("curl, scripts").isEqualTo(200);
        assertThat(post("https://evil.example", "cross-site")).isEqualTo(403);
        assertThat(post("http://127.0.0.1:8081", null)).as("another port is another origin").isEqualTo(403);
        assertThat(post("null", null)).as("a sandboxed frame or a file").isEqualTo(403);
        assertThat(post(null, "cross-site")).as("no Origin, but the browser says it is another site").isEqualTo(403);
        assertThat(post(null, "same-site")).isEqualTo(403);
    }

    @Test
    void readingIsNotChecked() throws Exception {
        MockHttpServletRequest request = new MockHttpServletRequest("GET", "/api/replica-sets");
        request.addHeader("Origin", "https://evil.example");
        MockHttpServletResponse response = new MockHttpServletResponse();
        origins.doFilter(request, response, new MockFilterChain());
        assertThat(response.getStatus()).isEqualTo(200);
    }
}
