package com.statefulcvm.connectors.phala;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.exactly;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.patch;
import static com.github.tomakehurst.wiremock.client.WireMock.patchRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.http.Fault;
import com.statefulcvm.connectors.phala.model.CommitRequest;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PhalaCloudClientRetryTest extends WireMockApiSupport {

    private static final String CVM = "{\"id\":\"cvm_1\",\"status\":\"running\"}";
    private static final Duration MS5 = Duration.ofMillis(5);
    private static final RetrySettings FAST = new RetrySettings(4, MS5, Duration.ofMillis(50));

    @Test
    void conflictWithoutErrorCodeIsRetriedWithExponentialBackoff() {
        stubSequence(() -> get(api("/cvms/cvm_1")),
                status(409, "{\"detail\":\"operation in progress\"}"),
                status(409, "{\"detail\":\"operation in progress\"}"),
                okJson(CVM));

        assertThat(client(FAST).getCvm("cvm_1").status()).isEqualTo("running");

        wm.verify(exactly(3), getRequestedFor(urlEqualTo(api("/cvms/cvm_1"))));
        assertThat(waits).containsExactly(Duration.ofMillis(5), Duration.ofMillis(10));
    }

    @ParameterizedTest
    @ValueSource(ints = {500, 502, 503, 504})
    void serverFailuresOfReadsAreRetried(int status) {
        stubSequence(() -> get(api("/cvms/cvm_1")), aResponse().withStatus(status), okJson(CVM));

        assertThat(client(FAST).getCvm("cvm_1").status()).isEqualTo("running");

        wm.verify(exactly(2), getRequestedFor(urlEqualTo(api("/cvms/cvm_1"))));
        assertThat(waits).containsExactly(MS5);
    }

    @Test
    void theReadOnlyStatusBatchPostIsRetriedLikeAGet() {
        stubSequence(() -> post(api("/status/batch")), aResponse().withStatus(502), okJson("{}"));

        assertThat(client(FAST).statusBatch(java.util.List.of("u1"))).isEmpty();

        wm.verify(exactly(2), postRequestedFor(urlEqualTo(api("/status/batch"))));
    }

    @ParameterizedTest
    @ValueSource(ints = {500, 502, 503, 504})
    void aServerFailureOfACallThatChangesSomethingIsNeverRepeatedBlindly(int status) {
        stubSequence(() -> post(api("/cvms/cvm_1/start")), aResponse().withStatus(status), okJson(CVM));

        PhalaApiException e = apiError(() -> client(FAST).start("cvm_1"));

        assertThat(e.status()).isEqualTo(status);
        assertThat(e.isRetryable()).isFalse();
        assertThat(e.isOutcomeUnknown()).as("the caller must read back before sending it again").isTrue();
        wm.verify(exactly(1), postRequestedFor(urlEqualTo(api("/cvms/cvm_1/start"))));
        assertThat(waits).isEmpty();
    }

    @Test
    void tooManyRequestsIsRetriedForEveryCallAndWaitsRetryAfterSeconds() {
        stubSequence(() -> post(api("/apps/" + "a".repeat(40) + "/instances")),
                status(429, "{\"detail\":\"rate limited\"}").withHeader("Retry-After", "0"),
                okJson(CVM));

        client(new RetrySettings(3, MS5, Duration.ofSeconds(2))).createAppInstance("a".repeat(40), null);

        wm.verify(exactly(2), postRequestedFor(urlEqualTo(api("/apps/" + "a".repeat(40) + "/instances"))));
        assertThat(waits).containsExactly(Duration.ZERO);
    }

    @Test
    void aRetryAfterLongerThanTheClientWaitsEndsTheAttempts() {
        stubSequence(() -> get(api("/cvms/cvm_1")),
                status(429, "{\"detail\":\"rate limited\"}").withHeader("Retry-After", "1"),
                okJson(CVM));

        PhalaApiException e = apiError(() -> client(FAST).getCvm("cvm_1"));

        assertThat(e.status()).isEqualTo(429);
        assertThat(e.retryAfter()).contains(Duration.ofSeconds(1));
        wm.verify(exactly(1), getRequestedFor(urlEqualTo(api("/cvms/cvm_1"))));
        assertThat(waits).as("never sooner than the server asked").isEmpty();
    }

    @Test
    void tooManyRequestsWaitsRetryAfterHttpDate() {
        String in7s = DateTimeFormatter.RFC_1123_DATE_TIME.format(NOW.plusSeconds(7).atZone(ZoneOffset.UTC));
        stubSequence(() -> get(api("/cvms/cvm_1")),
                aResponse().withStatus(429).withHeader("Retry-After", in7s),
                okJson(CVM));

        client(new RetrySettings(3, MS5, Duration.ofSeconds(20))).getCvm("cvm_1");

        wm.verify(exactly(2), getRequestedFor(urlEqualTo(api("/cvms/cvm_1"))));
        assertThat(waits).containsExactly(Duration.ofSeconds(7));
    }

    @Test
    void aRetryAfterHttpDateBeyondTheCapEndsTheAttemptsToo() {
        String in10s = DateTimeFormatter.RFC_1123_DATE_TIME.format(NOW.plusSeconds(10).atZone(ZoneOffset.UTC));
        stubSequence(() -> get(api("/cvms/cvm_1")),
                aResponse().withStatus(429).withHeader("Retry-After", in10s),
                okJson(CVM));

        assertThat(apiError(() -> client(FAST).getCvm("cvm_1")).status()).isEqualTo(429);
        assertThat(waits).isEmpty();
    }

    @Test
    void realWaitsWorkThroughThePublicFactory() {
        stubSequence(() -> get(api("/cvms/cvm_1")), aResponse().withStatus(503), aResponse().withStatus(503), okJson(CVM));

        PhalaCloudClient client = PhalaCloudClients.create(settings(FAST));

        assertThat(client.getCvm("cvm_1").id()).isEqualTo("cvm_1");
        wm.verify(exactly(3), getRequestedFor(urlEqualTo(api("/cvms/cvm_1"))));
    }

    @Test
    void conflictWithErrorCodeIsNotRetried() {
        stubSequence(() -> post(api("/cvms")),
                status(409, "{\"error_code\":\"ERR-01-004\",\"message\":\"Duplicate CVM name\"}"),
                okJson("{\"id\":\"cvm_1\"}"));

        PhalaApiException e = apiError(() -> client(FAST).commitProvision(new CommitRequest("a", "h", null, null)));

        assertThat(e.status()).isEqualTo(409);
        assertThat(e.errorCode()).isEqualTo(PhalaErrorCodes.DUPLICATE_CVM_NAME);
        assertThat(e.isRetryable()).isFalse();
        wm.verify(exactly(1), postRequestedFor(urlEqualTo(api("/cvms"))));
        assertThat(waits).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(ints = {400, 401, 403, 404, 422, 465, 501})
    void otherStatusesAreNotRetried(int status) {
        stubSequence(() -> get(api("/cvms/cvm_1")), status(status, "{\"detail\":\"no\"}"), okJson(CVM));

        PhalaApiException e = apiError(() -> client(FAST).getCvm("cvm_1"));

        assertThat(e.status()).isEqualTo(status);
        wm.verify(exactly(1), getRequestedFor(urlEqualTo(api("/cvms/cvm_1"))));
        assertThat(waits).isEmpty();
    }

    @Test
    void exhaustedAttemptsThrowTheLastAnswer() {
        stubSequence(() -> patch(api("/cvms/cvm_1/docker-compose")),
                status(409, "{\"detail\":\"busy\"}"),
                status(429, "{\"detail\":\"slow down\"}"),
                status(409, "{\"detail\":\"still busy\"}"));

        PhalaApiException e = apiError(() -> client(new RetrySettings(3, MS5, Duration.ofMillis(50))).updateDockerCompose("cvm_1", "x"));

        assertThat(e.status()).isEqualTo(409);
        assertThat(e.apiMessage()).isEqualTo("still busy");
        assertThat(e.isRetryable()).isTrue();
        wm.verify(exactly(3), patchRequestedFor(urlEqualTo(api("/cvms/cvm_1/docker-compose"))));
        assertThat(waits).hasSize(2);
    }

    @Test
    void readTimeoutOfGetIsRetriedAndEndsAsStatusZero() {
        wm.stubFor(get(api("/cvms/slow")).willReturn(okJson(CVM).withFixedDelay(1_000)));
        PhalaCloudSettings settings = new PhalaCloudSettings(wm.baseUrl() + PREFIX, API_KEY, null,
                Duration.ofSeconds(1), Duration.ofMillis(100), new RetrySettings(2, MS5, MS5));

        PhalaApiException e = apiError(() -> PhalaCloudClients.create(settings, waits::add, CLOCK).getCvm("slow"));

        assertThat(e.status()).isZero();
        assertThat(e.isNoResponse()).isTrue();
        assertThat(e.getCause()).isInstanceOf(HttpTimeoutException.class);
        assertThat(e.getMessage()).startsWith("Phala Cloud API GET /cvms/slow failed: no response");
        // on a loaded machine the JDK's 100 ms may end an attempt before its connection is made, so count the retries
        assertThat(waits).as("one retry").hasSize(1);
    }

    @Test
    void transportErrorOfPostIsNotRetried() {
        wm.stubFor(post(api("/cvms/cvm_1/stop")).willReturn(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER)));

        PhalaApiException e = apiError(() -> client(FAST).stop("cvm_1"));

        assertThat(e.status()).isZero();
        assertThat(e.method()).isEqualTo("POST");
        assertThat(e.isRetryable()).isFalse();
        assertThat(e.isOutcomeUnknown()).isTrue();
        assertThat(e.getCause()).isInstanceOf(IOException.class);
        wm.verify(exactly(1), postRequestedFor(urlEqualTo(api("/cvms/cvm_1/stop"))));
        assertThat(waits).isEmpty();
    }

    @Test
    void aTimeoutOfACallThatChangesSomethingIsNotRetried() {
        wm.stubFor(post(api("/cvms/slow/restart")).willReturn(okJson(CVM).withFixedDelay(3_000)));
        PhalaCloudSettings settings = new PhalaCloudSettings(wm.baseUrl() + PREFIX, API_KEY, null,
                Duration.ofSeconds(1), Duration.ofMillis(1_000), new RetrySettings(3, MS5, MS5));

        PhalaApiException e = apiError(() -> PhalaCloudClients.create(settings, waits::add, CLOCK).restart("slow", false));

        assertThat(e.isNoResponse()).isTrue();
        assertThat(e.isOutcomeUnknown()).isTrue();
        // a second wait would be a second attempt; (a read timeout long enough that the request reaches the stub on a
        // loaded machine)
        assertThat(waits).as("no retry").isEmpty();
        wm.verify(exactly(1), postRequestedFor(urlEqualTo(api("/cvms/slow/restart"))));
    }

    @Test
    void connectionRefusedOfAPostIsRetriedSinceNothingWasSent() throws IOException {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        PhalaCloudSettings settings = new PhalaCloudSettings("http://127.0.0.1:" + closedPort + PREFIX, API_KEY, null,
                Duration.ofSeconds(1), Duration.ofSeconds(1), new RetrySettings(3, MS5, MS5));

        PhalaApiException e = apiError(() -> PhalaCloudClients.create(settings, waits::add, CLOCK).stop("cvm_1"));

        assertThat(e.status()).isZero();
        assertThat(e.isOutcomeUnknown()).as("refused before anything was sent").isFalse();
        assertThat(waits).hasSize(2);
    }

    @Test
    void connectionRefusedOfGetIsRetriedThenReported() throws IOException {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        PhalaCloudSettings settings = new PhalaCloudSettings("http://127.0.0.1:" + closedPort + PREFIX, API_KEY, null,
                Duration.ofSeconds(1), Duration.ofSeconds(1), new RetrySettings(3, MS5, MS5));

        PhalaApiException e = apiError(() -> PhalaCloudClients.create(settings, waits::add, CLOCK).getCvm("cvm_1"));

        assertThat(e.status()).isZero();
        assertThat(e.path()).isEqualTo("/cvms/cvm_1");
        assertThat(e.getCause()).isInstanceOf(IOException.class);
        assertThat(waits).hasSize(2);
    }
}
