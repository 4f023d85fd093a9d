package com.statefulcvm.connectors.attestation;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalToJson;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.statefulcvm.connectors.attestation.VerdictAssertions.assertFailed;
import static com.statefulcvm.connectors.attestation.VerdictAssertions.assertPassed;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import com.github.tomakehurst.wiremock.http.Fault;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The dstack-verifier service in WireMock: its answers map onto a Verdict, its failures never throw. */
class DstackVerifierClientTest {

    private static WireMockServer service;
    private final Evidence evidence = AttestationVectors.dstackEvidence();

    private static final String VALID = """
            {"is_valid": true,
             "details": {"quote_verified": true, "event_log_verified": true, "os_image_hash_verified": true,
                         "tcb_status": "UpToDate", "advisory_ids": ["INTEL-SA-00837"],
                         "report_data": "0xAB12",
                         "key_provider": {"name": "kms", "id": "3059abcd"},
                         "app_info": {
                           "app_id": "86B0E55F2FA8E4FB69D890F14F54D5612707646E",
                           "compose_hash": "0x86b0e55f2fa8e4fb69d890f14f54d5612707646e2573d54e0d2ddaaade77caa9",
                           "instance_id": "050bf89570575fe8fab4cb8f0a62a9e64efe8ead",
                           "device_id": "ee", "mrtd": "aa", "rtmr0": "b0", "rtmr1": "b1", "rtmr2": "b2", "rtmr3": "b3",
                           "os_image_hash": "07a2388c7a6a1b6a646d443f1517990a4ec294471d63146cda9d56972765051d"}},
             "reason": null}
            """;

    @BeforeAll
    static void start() {
        service = new WireMockServer(WireMockConfiguration.options().dynamicPort());
        service.start();
    }

    @AfterAll
    static void stop() {
        service.stop();
    }

    @BeforeEach
    void reset() {
        service.resetAll();
    }

    private DstackVerifierClient client() {
        return DstackVerifierClient.create(service.baseUrl() + "/", Duration.ofSeconds(2));
    }

    private Verdict verify() {
        return client().verify(evidence, VerifyOptions.at(AttestationVectors.TODAY));
    }

    private static void answer(int status, String body) {
        service.stubFor(post(urlEqualTo("/verify")).willReturn(aResponse().withStatus(status)
                .withHeader("Content-Type", "application/json").withBody(body)));
    }

    @Test
    void sendsTheGetQuoteFieldsAndMapsAValidAnswer() throws Exception {
        answer(200, VALID);

        Verdict verdict = verify();

        assertThat(verdict.valid()).isTrue();
        assertPassed(verdict, CheckNames.QUOTE_SIGNATURE, CheckNames.EVENT_LOG_RTMR3, CheckNames.OS_IMAGE_HASH,
                CheckNames.TCB_STATUS, CheckNames.EVENT_LOG_IDENTITY);
        assertThat(verdict.tcbStatus()).isEqualTo("UpToDate");
        assertThat(verdict.advisoryIds()).containsExactly("INTEL-SA-00837");
        assertThat(verdict.reportData()).isEqualTo("ab12");
        Identity id = verdict.identity();
        assertThat(id.appId()).isEqualTo(AttestationVectors.APP_ID);
        assertThat(id.composeHash()).isEqualTo(AttestationVectors.COMPOSE_HASH);
        assertThat(id.instanceId()).isEqualTo(AttestationVectors.INSTANCE_ID);
        assertThat(id.osImageHash()).isEqualTo(AttestationVectors.OS_IMAGE_HASH);
        assertThat(id.keyProviderName()).isEqualTo("kms");
        assertThat(id.keyProviderJson()).isEqualTo("{\"name\":\"kms\",\"id\":\"3059abcd\"}");
        assertThat(id.rtmr3()).isEqualTo("b3");
        service.verify(postRequestedFor(urlEqualTo("/verify"))
                .withRequestBody(matchingJsonPath("$.quote", com.github.tomakehurst.wiremock.client.WireMock
                        .equalTo(Bytes.hex(evidence.quote()))))
                .withRequestBody(matchingJsonPath("$.event_log", com.github.tomakehurst.wiremock.client.WireMock
                        .equalTo(evidence.eventLogJson())))
                .withRequestBody(matchingJsonPath("$.vm_config", com.github.tomakehurst.wiremock.client.WireMock
                        .equalTo(evidence.vmConfigJson()))));
    }

    @Test
    void mapsARejectionWithItsReason() {
        answer(200, """
                {"is_valid": false,
                 "details": {"quote_verified": true, "event_log_verified": false, "os_image_hash_verified": false,
                             "tcb_status": "UpToDate", "advisory_ids": [], "app_info": null},
                 "reason": "RTMR3 mismatch"}
                """);

        Verdict verdict = verify();

        assertThat(verdict.valid()).isFalse();
        assertPassed(verdict, CheckNames.QUOTE_SIGNATURE);
        assertFailed(verdict, CheckNames.EVENT_LOG_RTMR3, "RTMR3 mismatch");
        assertFailed(verdict, CheckNames.EVENT_LOG_IDENTITY, "no app id");
        assertThat(verdict.identity().composeHash()).isNull();
    }

    @Test
    void anInconsistentAnswerIsNotValid() {
        answer(200, VALID.replace("\"quote_verified\": true", "\"quote_verified\": false"));

        assertThat(verify().valid()).isFalse();
    }

    @Test
    void anHttpErrorIsAFailedVerdictNamingTheStatus() {
        answer(500, "{\"error\":\"internal\nboom\"}");

        Verdict verdict = verify();

        assertThat(verdict.valid()).isFalse();
        assertFailed(verdict, CheckNames.REMOTE_VERIFIER, "HTTP 500");
        assertFailed(verdict, CheckNames.REMOTE_VERIFIER, "internal boom");
    }

    @Test
    void anUnreadableAnswerIsAFailedVerdict() {
        answer(200, "<html>proxy error</html>");
        assertFailed(verify(), CheckNames.REMOTE_VERIFIER, "unreadable");
        answer(200, "{\"reason\":\"x\"}");
        assertFailed(verify(), CheckNames.REMOTE_VERIFIER, "lacks is_valid");
    }

    @Test
    void aDroppedConnectionIsAFailedVerdict() {
        service.stubFor(post(urlEqualTo("/verify")).willReturn(aResponse()
                .withFault(Fault.CONNECTION_RESET_BY_PEER)));

        Verdict verdict = verify();

        assertThat(verdict.valid()).isFalse();
        assertFailed(verdict, CheckNames.REMOTE_VERIFIER, "unreachable");
    }

    @Test
    void aSlowServiceIsAFailedVerdictAfterTheTimeout() {
        service.stubFor(post(urlEqualTo("/verify")).willReturn(aResponse().withStatus(200).withBody(VALID)
                .withFixedDelay(1500)));
        DstackVerifierClient impatient = DstackVerifierClient.create(service.baseUrl(), Duration.ofMillis(300));

        Verdict verdict = impatient.verify(evidence, VerifyOptions.at(AttestationVectors.TODAY));

        assertThat(verdict.valid()).isFalse();
        assertFailed(verdict, CheckNames.REMOTE_VERIFIER, "unreachable");
    }

    @Test
    void anAbsentServiceIsAFailedVerdictAndUnhealthy() {
        DstackVerifierClient absent = DstackVerifierClient.create("http://127.0.0.1:1", Duration.ofSeconds(1));

        assertFailed(absent.verify(evidence, VerifyOptions.at(AttestationVectors.TODAY)),
                CheckNames.REMOTE_VERIFIER, "unreachable");
        assertThat(absent.healthy()).isFalse();
    }

    @Test
    void healthFollowsTheHealthEndpoint() {
        service.stubFor(get(urlEqualTo("/health")).willReturn(aResponse().withStatus(200)
                .withBody("{\"status\":\"ok\"}")));
        assertThat(client().healthy()).isTrue();
        service.stubFor(get(urlEqualTo("/health")).willReturn(aResponse().withStatus(503)));
        assertThat(client().healthy()).isFalse();
    }

    @Test
    void sendsNoVmConfigWhenTheEvidenceHasNone() {
        answer(200, VALID);

        client().verify(new Evidence(evidence.quote(), evidence.eventLogJson(), null, null),
                VerifyOptions.at(AttestationVectors.TODAY));

        service.verify(postRequestedFor(urlEqualTo("/verify"))
                .withRequestBody(equalToJson("{\"quote\":\"" + Bytes.hex(evidence.quote()) + "\"}", true, true)));
    }
}
