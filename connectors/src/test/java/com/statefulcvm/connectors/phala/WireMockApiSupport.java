package com.statefulcvm.connectors.phala;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.MappingBuilder;
import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.client.ScenarioMappingBuilder;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import com.github.tomakehurst.wiremock.stubbing.Scenario;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;

/** One WireMock server per test class, standing in for Phala Cloud under a base path like the real one. */
abstract class WireMockApiSupport {

    static final String API_KEY = "phak_test_secret_42";
    static final String PREFIX = "/api/v1";
    static final Instant NOW = Instant.parse("2026-05-22T10:00:00Z");
    static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);

    static WireMockServer wm;

    /** Waits the retryer asked for; recorded instead of slept. */
    final List<Duration> waits = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void startServer() {
        wm = new WireMockServer(WireMockConfiguration.options().dynamicPort());
        wm.start();
    }

    @AfterAll
    static void stopServer() {
        wm.stop();
    }

    @BeforeEach
    void resetServer() {
        wm.resetAll();
        waits.clear();
    }

    static String api(String path) {
        return PREFIX + path;
    }

    PhalaCloudSettings settings(RetrySettings retry) {
        return new PhalaCloudSettings(wm.baseUrl() + PREFIX, API_KEY, null,
                Duration.ofSeconds(2), Duration.ofSeconds(2), retry);
    }

    PhalaCloudClient client(RetrySettings retry) {
        return PhalaCloudClients.create(settings(retry), waits::add, CLOCK);
    }

    PhalaCloudClient clientWithoutRetries() {
        return client(RetrySettings.none());
    }

    /** Answers the given responses one after another; the last one repeats. */
    static void stubSequence(Supplier<MappingBuilder> request, ResponseDefinitionBuilder... responses) {
        String scenario = "seq-" + UUID.randomUUID();
        String state = Scenario.STARTED;
        for (int i = 0; i < responses.length; i++) {
            ScenarioMappingBuilder mapping = request.get().inScenario(scenario).whenScenarioStateIs(state);
            mapping.willReturn(responses[i]);
            if (i < responses.length - 1) {
                String next = "step-" + (i + 1);
                mapping.willSetStateTo(next);
                state = next;
            }
            wm.stubFor(mapping);
        }
    }

    static PhalaApiException apiError(ThrowingCallable call) {
        return catchThrowableOfType(PhalaApiException.class, call);
    }

    static ResponseDefinitionBuilder status(int status, String jsonBody) {
        return aResponse().withStatus(status).withHeader("Content-Type", "application/json").withBody(jsonBody);
    }
}
