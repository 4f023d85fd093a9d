package com.statefulcvm.connectors.phala;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What a client reports for metrics: every HTTP attempt by operation and status, and every retry. */
class PhalaCallObserverTest extends WireMockApiSupport {

    private static final String CVM = "{\"id\":\"cvm_1\",\"status\":\"running\"}";
    private static final RetrySettings FAST = new RetrySettings(3, Duration.ofMillis(5), Duration.ofMillis(20));

    private final List<String> seen = new CopyOnWriteArrayList<>();

    private PhalaCloudClient observed() {
        return PhalaCloudClients.create(settings(FAST), waits::add, CLOCK, new PhalaCallObserver() {
            @Override
            public void exchanged(String operation, int status, Duration took) {
                seen.add(operation + " " + status);
            }

            @Override
            public void retried(String operation, int status) {
                seen.add("retry " + operation + " " + status);
            }
        });
    }

    @Test
    void eachAttemptAndEachRetryIsReportedByOperationNotByUrl() {
        stubSequence(() -> get(api("/cvms/cvm_1")), aResponse().withStatus(503), okJson(CVM));

        observed().getCvm("cvm_1");

        assertThat(seen).containsExactly("getCvm 503", "retry getCvm 503", "getCvm 200");
    }

    @Test
    void aRefusalThatIsNotRetriedIsReportedOnce() {
        wm.stubFor(get(api("/cvms/cvm_9")).willReturn(aResponse().withStatus(404).withBody("{\"detail\":\"not found\"}")));

        assertThatThrownBy(() -> observed().getCvm("cvm_9")).isInstanceOf(PhalaApiException.class);

        assertThat(seen).containsExactly("getCvm 404");
    }
}
