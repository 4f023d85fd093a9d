package com.statefulcvm.connectors.health;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import com.github.tomakehurst.wiremock.http.Fault;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class HttpHealthProbeTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(2);

    private static WireMockServer wm;
    private final HttpHealthProbe probe = new HttpHealthProbe();

    @BeforeAll
    static void start() {
        wm = new WireMockServer(WireMockConfiguration.options().dynamicPort());
        wm.start();
    }

    @AfterAll
    static void stop() {
        wm.stop();
    }

    @BeforeEach
    void reset() {
        wm.resetAll();
    }

    private static URI url(String path) {
        return URI.create(wm.baseUrl() + path);
    }

    @Test
    void expectedStatusIsHealthy() {
        wm.stubFor(get("/health").willReturn(aResponse().withStatus(200).withBody("{\"status\":\"ok\"}")));

        ProbeResult result = probe.probe(url("/health"), 200, TIMEOUT);

        assertThat(result.healthy()).isTrue();
        assertThat(result.statusCode()).isEqualTo(200);
        assertThat(result.answered()).isTrue();
        assertThat(result.detail()).isEqualTo("HTTP 200");
        assertThat(result.latency()).isPositive().isLessThan(TIMEOUT);
    }

    @Test
    void serviceUnavailableIsUnhealthy() {
        wm.stubFor(get("/health").willReturn(aResponse().withStatus(503)));

        ProbeResult result = probe.probe(url("/health"), 200, TIMEOUT);

        assertThat(result.healthy()).isFalse();
        assertThat(result.statusCode()).isEqualTo(503);
        assertThat(result.detail()).isEqualTo("expected HTTP 200 but got 503");
    }

    @Test
    void anyOtherStatusThanTheExpectedOneIsUnhealthy() {
        wm.stubFor(get("/ready").willReturn(aResponse().withStatus(200)));
        wm.stubFor(get("/teapot").willReturn(aResponse().withStatus(418)));

        assertThat(probe.probe(url("/ready"), 204, TIMEOUT).healthy()).isFalse();
        assertThat(probe.probe(url("/teapot"), 418, TIMEOUT).healthy()).isTrue();
    }

    @Test
    void slowAnswerTimesOut() {
        // the answer comes far later than the timeout, so "did not wait for it" holds on a slow machine too
        wm.stubFor(get("/health").willReturn(aResponse().withStatus(200).withFixedDelay(5_000)));

        ProbeResult result = probe.probe(url("/health"), 200, Duration.ofMillis(200));

        assertThat(result.healthy()).isFalse();
        assertThat(result.statusCode()).isEqualTo(ProbeResult.NO_ANSWER);
        assertThat(result.detail()).isEqualTo("timed out after 200 ms");
        assertThat(result.latency()).isGreaterThanOrEqualTo(Duration.ofMillis(200)).isLessThan(Duration.ofMillis(4_500));
    }

    @Test
    void closedPortIsConnectionRefused() throws IOException {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }

        ProbeResult result = probe.probe(URI.create("http://127.0.0.1:" + closedPort + "/health"), 200, TIMEOUT);

        assertThat(result.healthy()).isFalse();
        assertThat(result.statusCode()).isZero();
        assertThat(result.answered()).isFalse();
        assertThat(result.detail()).isEqualTo("connection refused");
    }

    @Test
    void droppedConnectionIsUnhealthyNotAnException() {
        wm.stubFor(get("/health").willReturn(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER)));

        ProbeResult result = probe.probe(url("/health"), 200, TIMEOUT);

        assertThat(result.healthy()).isFalse();
        assertThat(result.statusCode()).isZero();
        assertThat(result.detail()).startsWith("no answer: ");
    }

    @Test
    void unknownHostIsUnhealthyNotAnException() {
        ProbeResult result = probe.probe(URI.create("http://no-such-host.invalid/health"), 200, TIMEOUT);

        assertThat(result.healthy()).isFalse();
        assertThat(result.statusCode()).isZero();
    }

    // --- the asynchronous probe answers exactly as the blocking one, without an exception

    @Test
    void asynchronousProbeJudgesTheSameWay() {
        wm.stubFor(get("/health").willReturn(aResponse().withStatus(200)));
        wm.stubFor(get("/down").willReturn(aResponse().withStatus(503)));

        ProbeResult healthy = probe.probeAsync(url("/health"), 200, TIMEOUT).join();
        ProbeResult down = probe.probeAsync(url("/down"), 200, TIMEOUT).join();

        assertThat(healthy.healthy()).isTrue();
        assertThat(healthy.detail()).isEqualTo("HTTP 200");
        assertThat(down.healthy()).isFalse();
        assertThat(down.detail()).isEqualTo("expected HTTP 200 but got 503");
    }

    @Test
    void asynchronousProbeNamesTimeoutsAndRefusalsAndNeverFails() throws IOException {
        wm.stubFor(get("/slow").willReturn(aResponse().withStatus(200).withFixedDelay(1_500)));
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        wm.stubFor(get("/reset").willReturn(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER)));

        ProbeResult slow = probe.probeAsync(url("/slow"), 200, Duration.ofMillis(200)).join();
        ProbeResult refused = probe.probeAsync(URI.create("http://127.0.0.1:" + closedPort + "/health"), 200, TIMEOUT).join();
        ProbeResult reset = probe.probeAsync(url("/reset"), 200, TIMEOUT).join();

        assertThat(slow.detail()).isEqualTo("timed out after 200 ms");
        assertThat(slow.statusCode()).isEqualTo(ProbeResult.NO_ANSWER);
        assertThat(refused.detail()).isEqualTo("connection refused");
        assertThat(reset.healthy()).isFalse();
        assertThat(reset.detail()).startsWith("no answer: ");
    }
}
