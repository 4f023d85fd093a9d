package com.statefulcvm.simulator.web;

import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

import static org.assertj.core.api.Assertions.assertThat;

/** The admin controls answer a direct client on this machine, for a loopback name, and nobody else. */
class LoopbackOnlyFilterTest {

    private static int status(String remote, String host, String... header) throws Exception {
        MockHttpServletRequest request = new MockHttpServletRequest("POST", "/simulator/_admin/cvms/x/crash");
        request.setRemoteAddr(remote);
        if (host != null) {
            request.addHeader("Host", host);
        }
        for (int i = 0; i + 1 < header.length; i += 2) {
            request.addHeader(header[i], header[i + 1]);
        }
        MockHttpServletResponse response = new MockHttpServletResponse();
        new LoopbackOnlyFilter().doFilter(request, response, new MockFilterChain());
        return response.getStatus();
    }

    @Test
    void aDirectClientOnThisMachineForALoopbackName() throws Exception {
        assertThat(status("127.0.0.1", "localhost:8080")).isEqualTo(200);
        assertThat(status("127.0.0.1", "127.0.0.1:8080")).isEqualTo(200);
        assertThat(status("127.0.0.1", "127.0.0.1")).isEqualTo(200);
        assertThat(status("::1", "[::1]:8080")).isEqualTo(200);
        assertThat(status("127.0.0.1", null)).as("no Host: the name the request was addressed to (localhost)").isEqualTo(200);
    }

    @Test
    void anyProxyHeaderOrAnotherHostIsRefused() throws Exception {
        for (String[] header : new String[][]{{"X-Real-IP", "127.0.0.1"}, {"X-Forwarded-For", "127.0.0.1"}, {"Forwarded", "for=127.0.0.1"},
                {"X-Forwarded-Host", "localhost"}, {"X-Forwarded-Proto", "https"}, {"Via", "1.1 proxy"}, {"True-Client-IP", "127.0.0.1"},
                {"CF-Connecting-IP", "127.0.0.1"}, {"X-Client-IP", "127.0.0.1"}}) {
            assertThat(status("127.0.0.1", "localhost:8080", header)).as(header[0]).isEqualTo(403);
        }
        for (String host : new String[]{"evil.example", "localhost.evil.example:8080", "127.0.0.1.nip.io", "192.0.2.1:8080", "0.0.0.0:8080", ""}) {
            assertThat(status("127.0.0.1", host)).as(host).isEqualTo(403);
        }
        assertThat(status("192.0.2.7", "localhost:8080")).isEqualTo(403);
    }
}
