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
