package com.statefulcvm.connectors.phala;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.patch;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.statefulcvm.connectors.phala.model.ProvisionRequest;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Every error answer reaches the caller as one PhalaApiException with a readable message. */
class PhalaCloudClientErrorsTest extends WireMockApiSupport {

    @Test
    void detailTextWithMethodAndPathInTheMessage() {
        wm.stubFor(patch(api("/cvms/cvm_x/docker-compose"))
                .willReturn(status(409, "{\"detail\":\"CVM has an operation in progress\"}")));

        PhalaApiException e = apiError(() -> clientWithoutRetries().updateDockerCompose("cvm_x", "services: {}"));

        assertThat(e.getMessage())
                .isEqualTo("Phala Cloud API PATCH /cvms/cvm_x/docker-compose failed: 409 CVM has an operation in progress");
        assertThat(e.status()).isEqualTo(409);
        assertThat(e.method()).isEqualTo("PATCH");
        assertThat(e.path()).isEqualTo("/cvms/cvm_x/docker-compose");
        assertThat(e.apiMessage()).isEqualTo("CVM has an operation in progress");
        assertThat(e.errorCode()).isNull();
        assertThat(e.isRetryable()).isTrue();
        assertThat(e.isConflict()).isTrue();
    }

    @Test
    void validationListOf422() {
        wm.stubFor(post(api("/cvms/provision")).willReturn(status(422,
                "{\"detail\":[{\"loc\":[\"body\",\"instance_type\"],\"msg\":\"field required\",\"type\":\"missing\"}]}")));

        PhalaApiException e = apiError(() -> clientWithoutRetries()
                .provision(new ProvisionRequest("slot-a", null,
                        new ProvisionRequest.Compose(null, null, "services: {}", null, null, null, null, null, null),
                        null, null, null, null)));

        assertThat(e.status()).isEqualTo(422);
        assertThat(e.apiMessage()).isEqualTo("body.instance_type: field required");
        assertThat(e.isRetryable()).isFalse();
    }

    @Test
    void structuredErrorCarriesTheErrorCode() {
        wm.stubFor(get(api("/cvms/cvm_gone")).willReturn(status(404,
                "{\"error_code\":\"ERR-03-001\",\"message\":\"CVM not found\","
                        + "\"details\":[{\"field\":\"cvm_id\",\"value\":\"cvm_gone\",\"message\":\"no such CVM\"}]}")));

        PhalaApiException e = apiError(() -> clientWithoutRetries().getCvm("cvm_gone"));

        assertThat(e.isNotFound()).isTrue();
        assertThat(e.errorCode()).isEqualTo(PhalaErrorCodes.CVM_NOT_FOUND);
        assertThat(e.getMessage())
                .isEqualTo("Phala Cloud API GET /cvms/cvm_gone failed: 404 CVM not found (cvm_id: no such CVM)");
    }

    @Test
    void bareMessageBody() {
        wm.stubFor(get(api("/cvms/c1/state")).willReturn(status(500, "{\"message\":\"database unavailable\"}")));

        PhalaApiException e = apiError(() -> clientWithoutRetries().getCvmState("c1"));

        assertThat(e.status()).isEqualTo(500);
        assertThat(e.apiMessage()).isEqualTo("database unavailable");
    }

    @Test
    void emptyBodyFallsBackToTheStatus() {
        wm.stubFor(get(api("/cvms/c1/network")).willReturn(aResponse().withStatus(403)));

        PhalaApiException e = apiError(() -> clientWithoutRetries().getNetwork("c1"));

        assertThat(e.getMessage()).isEqualTo("Phala Cloud API GET /cvms/c1/network failed: 403 HTTP 403");
    }

    @Test
    void plainTextBody() {
        wm.stubFor(get(api("/cvms/c1")).willReturn(aResponse().withStatus(400).withBody("configuration parameters not compatible")));

        PhalaApiException e = apiError(() -> clientWithoutRetries().getCvm("c1"));

        assertThat(e.apiMessage()).isEqualTo("configuration parameters not compatible");
    }

    @Test
    void status465AsksForOnChainRegistration() {
        wm.stubFor(patch(api("/cvms/c1/docker-compose"))
                .willReturn(status(465, "{\"detail\":\"compose hash must be registered on chain\"}")));

        PhalaApiException e = apiError(() -> clientWithoutRetries().updateDockerCompose("c1", "x"));

        assertThat(e.status()).isEqualTo(465);
        assertThat(e.isOnChainHashRequired()).isTrue();
        assertThat(e.isRetryable()).isFalse();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(ints = {466, 467, 468})
    void eachRefusalOfAnOnChainCommitHasItsNameAndIsNeverSentAgain(int status) {
        wm.stubFor(post(api("/cvms/c1/commit-update")).willReturn(status(status, "{\"detail\":\"refused\"}")));

        PhalaApiException e = apiError(() -> client(new RetrySettings(3, Duration.ofMillis(5), Duration.ofMillis(50))).commitUpdate("c1", "tok", "ab".repeat(32), "0x" + "5e".repeat(32)));

        assertThat(e.status()).isEqualTo(status);
        assertThat(e.isOnChainCommitRefused()).isTrue();
        assertThat(e.isComposeHashExpired()).isEqualTo(status == 466);
        assertThat(e.isTransactionVerificationFailed()).isEqualTo(status == 467);
        assertThat(e.isComposeHashNotFoundOnChain()).isEqualTo(status == 468);
        assertThat(e.isOnChainHashRequired()).isFalse();
        assertThat(e.isRetryable()).isFalse();
        assertThat(e.isOutcomeUnknown()).as("a refusal: nothing was done").isFalse();
        wm.verify(1, postRequestedFor(urlPathEqualTo(api("/cvms/c1/commit-update"))));
    }

    @Test
    void retryAfterIsExposedEvenWhenNotRetried() {
        wm.stubFor(get(api("/cvms/c1")).willReturn(status(429, "{\"detail\":\"slow down\"}").withHeader("Retry-After", "9")));

        PhalaApiException e = apiError(() -> clientWithoutRetries().getCvm("c1"));

        assertThat(e.retryAfter()).contains(Duration.ofSeconds(9));
        assertThat(e.isRetryable()).isTrue();
    }

    @Test
    void queryStringIsNotPartOfThePath() {
        wm.stubFor(get(urlPathEqualTo(api("/apps/abc/revisions"))).willReturn(status(400, "{\"detail\":\"bad page\"}")));

        PhalaApiException e = apiError(() -> clientWithoutRetries().listRevisions("app_abc", 0, 10));

        assertThat(e.path()).isEqualTo("/apps/abc/revisions");
    }

    @Test
    void theApiKeyAppearsNowhereInTheException() {
        wm.stubFor(get(api("/cvms/c1")).willReturn(status(401, "{\"detail\":\"Invalid API key\"}")));

        PhalaApiException e = apiError(() -> clientWithoutRetries().getCvm("c1"));

        assertThat(e.status()).isEqualTo(401);
        assertThat(e.toString()).doesNotContain(API_KEY);
        assertThat(String.valueOf(e.getCause())).doesNotContain(API_KEY);
    }

    @Test
    void unreadableSuccessBodyBecomesPhalaApiExceptionToo() {
        wm.stubFor(get(api("/cvms/c1")).willReturn(okJson("{\"id\": [")));

        PhalaApiException e = apiError(() -> clientWithoutRetries().getCvm("c1"));

        assertThat(e.method()).isEqualTo("GET");
        assertThat(e.path()).isEqualTo("/cvms/c1");
        assertThat(e.getMessage()).contains("could not process");
        assertThat(e.isRetryable()).isFalse();
    }

    @Test
    void badIdsNeverReachTheServer() {
        assertThat(catchThrowableOfType(IllegalArgumentException.class, () -> clientWithoutRetries().getCvm("a/b")))
                .hasMessageContaining("cvmId");
        assertThat(wm.getAllServeEvents()).isEmpty();
    }
}
