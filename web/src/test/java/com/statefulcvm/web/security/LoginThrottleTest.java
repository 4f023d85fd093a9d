package com.statefulcvm.web.security;

import jakarta.servlet.http.HttpServletResponse;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;

import static org.assertj.core.api.Assertions.assertThat;

/** Failed logins slow down their client, by address, and never anyone else. */
class LoginThrottleTest {

    private Instant now = Instant.parse("2026-01-01T00:00:00Z");
    private final LoginThrottle throttle = new LoginThrottle(new SecurityProperties.LoginThrottle(), new Clock() {
        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    });

    private MockHttpServletResponse login(String client, boolean correct) throws Exception {
        MockHttpServletRequest request = new MockHttpServletRequest("GET", "/api/replica-sets");
        request.setRemoteAddr(client);
        request.addHeader("Authorization", "Basic eA==");
        MockHttpServletResponse response = new MockHttpServletResponse();
        throttle.doFilter(request, response, new MockFilterChain() {
            @Override
            public void doFilter(jakarta.servlet.ServletRequest req, jakarta.servlet.ServletResponse res) {
                ((HttpServletResponse) res).setStatus(correct ? 200 : 401);
            }
        });
        return response;
    }

    @Test
    void afterFiveFailuresTheClientWaitsLongerEachTimeWhileOthersAreNotTouched() throws Exception {
        for (int i = 0; i < 5; i++) {
            assertThat(login("10.0.0.1", false).getStatus()).isEqualTo(401);
        }
        // the sixth failure earns the first wait
        assertThat(login("10.0.0.1", false).getStatus()).isEqualTo(401);
        MockHttpServletResponse waiting = login("10.0.0.1", true);
        assertThat(waiting.getStatus()).as("not even a correct password is tried while it waits").isEqualTo(429);
        assertThat(waiting.getHeader("Retry-After")).isEqualTo("2");
        assertThat(waiting.getContentAsString()).contains("6 failed logins from 10.0.0.1 in a row").contains("the accounts are not locked");
        // the same account from another client: unaffected
        assertThat(login("10.0.0.2", true).getStatus()).isEqualTo(200);

        now = now.plusSeconds(2);
        assertThat(login("10.0.0.1", false).getStatus()).isEqualTo(401);
        assertThat(login("10.0.0.1", true).getHeader("Retry-After")).as("doubled").isEqualTo("3");
        now = now.plus(Duration.ofMinutes(10));
        assertThat(login("10.0.0.1", true).getStatus()).as("a correct login after the wait").isEqualTo(200);
        assertThat(login("10.0.0.1", false).getStatus()).as("and the count starts again").isEqualTo(401);
        assertThat(login("10.0.0.1", true).getStatus()).isEqualTo(200);
    }

    private MockHttpServletResponse login(String client, String user, boolean correct) throws Exception {
        MockHttpServletRequest request = new MockHttpServletRequest("GET", "/api/replica-sets");
        request.setRemoteAddr(client);
        request.addHeader("Authorization", "Basic " + java.util.Base64.getEncoder()
                .encodeToString((user + ":pw").getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        MockHttpServletResponse response = new MockHttpServletResponse();
        throttle.doFilter(request, response, new MockFilterChain() {
            @Override
            public void doFilter(jakarta.servlet.ServletRequest req, jakarta.servlet.ServletResponse res) {
                ((HttpServletResponse) res).setStatus(correct ? 200 : 401);
            }
        });
        return response;
    }

    @Test
    void aCorrectLoginClearsThatUsersFailuresOnly() throws Exception {
        for (int round = 0; round < 2; round++) {
            assertThat(login("10.0.0.4", "admin", false).getStatus()).isEqualTo(401);
            assertThat(login("10.0.0.4", "admin", false).getStatus()).isEqualTo(401);
            assertThat(login("10.0.0.4", "vera", true).getStatus()).isEqualTo(200);
        }
        assertThat(login("10.0.0.4", "admin", false).getStatus()).isEqualTo(401);
        assertThat(login("10.0.0.4", "admin", false).getStatus()).as("admin's sixth failure in a row, vera's logins between").isEqualTo(401);
        assertThat(login("10.0.0.4", "vera", true).getStatus()).as("the client waits, whoever it logs in as").isEqualTo(429);

        // the client's own typo, then its correct login: that clears it
        login("10.0.0.5", "olivia", false);
        login("10.0.0.5", "olivia", false);
        login("10.0.0.5", "olivia", true);
        for (int i = 0; i < 5; i++) {
            assertThat(login("10.0.0.5", "admin", false).getStatus()).isEqualTo(401);
        }
        assertThat(login("10.0.0.5", "admin", false).getStatus()).isEqualTo(401);
        assertThat(login("10.0.0.5", "olivia", true).getStatus()).as("five free failures, then the wait").isEqualTo(429);
    }

    @Test
    void theWebappsLoginNamesItsUserAndKeepsItsBody() throws Exception {
        for (int i = 0; i < 3; i++) {
            MockHttpServletRequest request = new MockHttpServletRequest("POST", LoginThrottle.WEBAPP_LOGIN + "default/login/tasklist");
            request.setRemoteAddr("10.0.0.6");
            request.setContentType("application/x-www-form-urlencoded");
            request.setContent("username=ad%6Din&password=guess".getBytes(java.nio.charset.StandardCharsets.UTF_8));
            MockHttpServletResponse response = new MockHttpServletResponse();
            String[] seen = new String[1];
            throttle.doFilter(request, response, new MockFilterChain() {
                @Override
                public void doFilter(jakarta.servlet.ServletRequest req, jakarta.servlet.ServletResponse res) throws java.io.IOException {
                    seen[0] = new String(req.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
                    ((HttpServletResponse) res).setStatus(401);
                }
            });
            assertThat(seen[0]).as("the login resource reads the whole form").isEqualTo("username=ad%6Din&password=guess");
        }
        assertThat(LoginThrottle.formUser("password=x&username=ad%6Din".getBytes(java.nio.charset.StandardCharsets.UTF_8))).isEqualTo("admin");
        // vera's correct login does not clear admin's three
        login("10.0.0.6", "vera", true);
        login("10.0.0.6", "admin", false);
        login("10.0.0.6", "admin", false);
        assertThat(login("10.0.0.6", "admin", false).getStatus()).isEqualTo(401);
        assertThat(login("10.0.0.6", "vera", true).getStatus()).isEqualTo(429);
    }

    @Test
    void aRequestWithoutCredentialsIsNoFailedLogin() throws Exception {
        for (int i = 0; i < 20; i++) {
            MockHttpServletRequest request = new MockHttpServletRequest("GET", "/api/replica-sets");
            request.setRemoteAddr("10.0.0.3");
            MockHttpServletResponse response = new MockHttpServletResponse();
            throttle.doFilter(request, response, new MockFilterChain() {
                @Override
                public void doFilter(jakarta.servlet.ServletRequest req, jakarta.servlet.ServletResponse res) {
                    ((HttpServletResponse) res).setStatus(401);
                }
            });
            assertThat(response.getStatus()).isEqualTo(401);
        }
        assertThat(login("10.0.0.3", true).getStatus()).isEqualTo(200);
    }
}
