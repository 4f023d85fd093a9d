package com.statefulcvm.connectors.phala;

import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class PhalaCloudClientLoggingTest extends WireMockApiSupport {

    @Test
    void debugLogShowsTheRequestButNeverTheApiKey() {
        wm.stubFor(get(api("/cvms/cvm_1")).willReturn(okJson("{\"id\":\"cvm_1\"}")));
        wm.stubFor(get(api("/cvms/cvm_2")).willReturn(status(503, "{\"detail\":\"busy\"}")));
        PhalaCloudClient client = client(new RetrySettings(2, Duration.ZERO, Duration.ZERO));

        PrintStream original = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            client.getCvm("cvm_1");
            try {
                client.getCvm("cvm_2");
            } catch (PhalaApiException expected) {
                // only the log matters here
            }
        } finally {
            System.setErr(original);
        }

        String log = captured.toString(StandardCharsets.UTF_8);
        // Proves the capture works, so the absence below means something.
        assertThat(log).contains("GET " + wm.baseUrl() + PREFIX + "/cvms/cvm_1").contains("Retrying");
        assertThat(log).doesNotContain(API_KEY).doesNotContain("X-API-Key");
    }
}
