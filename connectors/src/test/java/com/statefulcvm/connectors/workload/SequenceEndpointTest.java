package com.statefulcvm.connectors.workload;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SequenceEndpointTest {

    private final StubServer server = StubServer.start();
    private final SequenceEndpoint endpoint = new SequenceEndpoint(
            new WorkloadHttp("sequence endpoint", server.uri(), Duration.ofSeconds(2), WorkloadHttp.sharedHttpClient()));

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void anIntegerIsTheNumber() {
        server.on("GET", "/sequence", StubServer.Reply.text(200, " 81234\n"));
        assertThat(endpoint.read("/sequence")).isEqualTo(81234L);
    }

    @Test
    void aJsonAnswerCarriesTheGenerationBesideTheNumber() {
        server.on("GET", "/sequence", StubServer.Reply.text(200, "{\"generation\": 3, \"sequence\": 67345056}"));
        assertThat(endpoint.readPosition("/sequence")).isEqualTo(new SequenceEndpoint.Position(3L, 67345056L));
        server.on("GET", "/sequence", StubServer.Reply.text(200, "{\"sequence\": 5}"));
        assertThat(endpoint.readPosition("/sequence")).isEqualTo(new SequenceEndpoint.Position(null, 5L));
        server.on("GET", "/sequence", StubServer.Reply.text(200, "{\"generation\": 3}"));
        assertThatThrownBy(() -> endpoint.readPosition("/sequence")).hasMessageContaining("not a non-negative integer");
        server.on("GET", "/sequence", StubServer.Reply.text(200, "{not json"));
        assertThatThrownBy(() -> endpoint.readPosition("/sequence")).hasMessageContaining("not a JSON object");
    }

    @Test
    void anythingElseIsADefiniteFailureNeverANumber() {
        server.on("GET", "/sequence", StubServer.Reply.text(200, "unknown"));
        assertThatThrownBy(() -> endpoint.read("/sequence")).isInstanceOfSatisfying(WorkloadApiException.class, e -> {
            assertThat(e.isRetryable()).isFalse();
            assertThat(e.getMessage()).contains("answered 'unknown', not a non-negative integer");
        });
        server.on("GET", "/sequence", StubServer.Reply.text(200, "-3"));
        assertThatThrownBy(() -> endpoint.read("/sequence")).isInstanceOf(WorkloadApiException.class);
        server.on("GET", "/sequence", StubServer.Reply.text(200, "99999999999999999999"));
        assertThatThrownBy(() -> endpoint.read("/sequence")).hasMessageContaining("not a non-negative integer");
    }

    @Test
    void aReplicaNotReadyYetIsRetryable() {
        server.on("GET", "/sequence", StubServer.Reply.text(503, "starting"));
        assertThatThrownBy(() -> endpoint.read("/sequence")).isInstanceOfSatisfying(WorkloadApiException.class,
                e -> assertThat(e.isRetryable()).isTrue());
    }

    @Test
    void releaseIsAPostAndAnyTwoHundredWillDo() {
        server.on("POST", "/release", StubServer.Reply.text(202, ""));
        endpoint.release("/release");
        assertThat(server.last().method()).isEqualTo("POST");
        server.on("POST", "/release", StubServer.Reply.text(500, "cannot start"));
        assertThatThrownBy(() -> endpoint.release("/release")).hasMessageContaining("500");
    }
}
