package com.statefulcvm.connectors.phala;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalToJson;
import static com.github.tomakehurst.wiremock.client.WireMock.exactly;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.patch;
import static com.github.tomakehurst.wiremock.client.WireMock.patchRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static org.assertj.core.api.Assertions.assertThat;

import com.statefulcvm.connectors.phala.model.AppInstanceRequest;
import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.connectors.phala.model.ProvisionRequest;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Creating CVMs one at a time: the busy 400 retried, a create of unknown outcome read back, then named. */
class InstanceCreatorTest extends WireMockApiSupport {

    private static final String APP = "a".repeat(40);
    private static final String BUSY = "{\"detail\":\"The configuration parameters are not compatible with each other\"}";
    private static final String NONE = "[{\"id\":\"cvm_0\",\"name\":\"db-0\",\"vm_uuid\":\"u0\",\"status\":\"running\"}]";
    private static final String ARRIVED = "[{\"id\":\"cvm_0\",\"name\":\"db-0\",\"vm_uuid\":\"u0\",\"status\":\"running\"},"
            + "{\"id\":\"cvm_1\",\"name\":\"db-abcde\",\"vm_uuid\":\"u1\",\"status\":\"pending\"}]";
    private static final String NAMED = "[{\"id\":\"cvm_0\",\"name\":\"db-0\",\"vm_uuid\":\"u0\",\"status\":\"running\"},"
            + "{\"id\":\"cvm_1\",\"name\":\"db-1\",\"vm_uuid\":\"u1\",\"status\":\"pending\"}]";

    private InstanceCreator creator() {
        return new InstanceCreator(clientWithoutRetries(), waits::add, CLOCK, Duration.ofMillis(10), Duration.ofMillis(40));
    }

    @Test
    void theBusyAnswerIsRetriedWithBackoffThenTheNewCvmIsWaitedForAndNamed() {
        stubSequence(() -> get(api("/apps/" + APP + "/cvms")), okJson(NONE), okJson(ARRIVED), okJson(NAMED));
        stubSequence(() -> post(api("/apps/" + APP + "/instances")), status(400, BUSY), status(400, BUSY),
                okJson("{\"id\":17,\"name\":\"db-abcde\",\"vm_uuid\":\"u1\",\"status\":\"pending\"}"));
        wm.stubFor(patch(api("/cvms/cvm_1/name")).willReturn(aResponse().withStatus(204)));

        CvmInfo created = creator().create(APP, "db-1", AppInstanceRequest.onNode(2L), cvm -> false, Duration.ofMinutes(1));

        assertThat(created.name()).isEqualTo("db-1");
        assertThat(waits).containsExactly(Duration.ofMillis(10), Duration.ofMillis(20));
        wm.verify(exactly(3), postRequestedFor(urlEqualTo(api("/apps/" + APP + "/instances")))
                .withRequestBody(equalToJson("{\"node_id\":2}")));
        wm.verify(patchRequestedFor(urlEqualTo(api("/cvms/cvm_1/name"))).withRequestBody(equalToJson("{\"name\":\"db-1\"}")));
    }

    @Test
    void aCreateOfUnknownOutcomeIsReadBackAndNotSentAgainWhenItArrived() {
        stubSequence(() -> get(api("/apps/" + APP + "/cvms")), okJson(NONE), okJson(ARRIVED), okJson(ARRIVED), okJson(NAMED));
        wm.stubFor(post(api("/apps/" + APP + "/instances")).willReturn(aResponse().withStatus(502)));
        wm.stubFor(patch(api("/cvms/cvm_1/name")).willReturn(aResponse().withStatus(204)));

        CvmInfo created = creator().create(APP, "db-1", AppInstanceRequest.onNode(null), cvm -> false, Duration.ofMinutes(1));

        assertThat(created.name()).isEqualTo("db-1");
        wm.verify(exactly(1), postRequestedFor(urlEqualTo(api("/apps/" + APP + "/instances"))));
    }

    @Test
    void aCreateOfUnknownOutcomeThatLeftNothingIsSentAgain() {
        stubSequence(() -> get(api("/apps/" + APP + "/cvms")), okJson(NONE), okJson(NONE), okJson(ARRIVED), okJson(NAMED));
        stubSequence(() -> post(api("/apps/" + APP + "/instances")), aResponse().withStatus(504),
                okJson("{\"id\":17,\"name\":\"db-abcde\",\"vm_uuid\":\"u1\",\"status\":\"pending\"}"));
        wm.stubFor(patch(api("/cvms/cvm_1/name")).willReturn(aResponse().withStatus(204)));

        assertThat(creator().create(APP, "db-1", null, cvm -> false, Duration.ofMinutes(1)).name()).isEqualTo("db-1");

        wm.verify(exactly(2), postRequestedFor(urlEqualTo(api("/apps/" + APP + "/instances"))));
    }

    @Test
    void anExistingCvmOfThatNameOrAnOrphanIsNotCreatedAgain() {
        wm.stubFor(get(api("/apps/" + APP + "/cvms")).willReturn(okJson(NAMED)));

        assertThat(creator().create(APP, "db-1", null, cvm -> false, Duration.ofMinutes(1)).id()).isEqualTo("cvm_1");

        wm.resetAll();
        stubSequence(() -> get(api("/apps/" + APP + "/cvms")), okJson(ARRIVED), okJson(NAMED));
        wm.stubFor(patch(api("/cvms/cvm_1/name")).willReturn(aResponse().withStatus(204)));

        CvmInfo adopted = creator().create(APP, "db-1", null, cvm -> "db-abcde".equals(cvm.name()), Duration.ofMinutes(1));

        assertThat(adopted.name()).isEqualTo("db-1");
        wm.verify(exactly(0), postRequestedFor(urlEqualTo(api("/apps/" + APP + "/instances"))));
    }

    @Test
    void stillBusyAfterTheWaitIsReportedAsTheService400() {
        wm.stubFor(get(api("/apps/" + APP + "/cvms")).willReturn(okJson(NONE)));
        wm.stubFor(post(api("/apps/" + APP + "/instances")).willReturn(status(400, BUSY)));

        PhalaApiException e = apiError(() -> creator().create(APP, "db-1", null, cvm -> false, Duration.ZERO));

        assertThat(InstanceCreator.isCreateBusy(e)).isTrue();
    }

    @Test
    void aCommitOfUnknownOutcomeIsReadBackBeforeItIsSentAgain() {
        wm.stubFor(post(api("/cvms/provision")).willReturn(okJson(
                "{\"app_id\":\"" + APP + "\",\"compose_hash\":\"" + "c".repeat(64) + "\",\"teepod_id\":1}")));
        wm.stubFor(post(api("/cvms")).willReturn(aResponse().withStatus(500)));
        wm.stubFor(get(api("/apps/" + APP + "/cvms")).willReturn(okJson(NONE)));

        var provisioned = creator().createApp(new ProvisionRequest("db-0", null,
                new ProvisionRequest.Compose(null, null, "services: {}", "db", null, null, null, null, null), null, null,
                null, null), Duration.ofMinutes(1));

        assertThat(provisioned.appId()).isEqualTo(APP);
        wm.verify(exactly(1), postRequestedFor(urlEqualTo(api("/cvms"))));
    }
}
