package com.statefulcvm.delegates.support;

import com.statefulcvm.connectors.phala.PhalaApiException;
import com.statefulcvm.connectors.phala.PhalaCloudClient;
import com.statefulcvm.connectors.phala.model.CvmInfo;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

/**
 * The procedure-level circuit: an outage (no answer, 429, 5xx after the client's retries) opens it, and calls then
 * fail at once without reaching Phala, but for one probe when the next try is due, the wait doubling up to its cap;
 * any answer closes it and wakes whoever waits. A refusal (4xx) is an answer: Phala is there.
 */
class PhalaCircuitTest {

    final PhalaEffectsTest.MutableClock clock = new PhalaEffectsTest.MutableClock(Instant.parse("2025-06-01T12:00:00Z"));
    final PhalaCircuit circuit = new PhalaCircuit(clock, Duration.ofSeconds(5), Duration.ofSeconds(30));
    final PhalaCloudClient phala = mock(PhalaCloudClient.class);
    final PhalaCloudClient client = CircuitBreakingClient.wrap(phala, circuit);

    static PhalaApiException status(int status) {
        return new PhalaApiException(status, null, "status " + status, null, "GET", "/cvms/x", null);
    }

    @Test
    void anOutageOpensItAndCallsFailAtOnceWithoutReachingPhalaUntilTheProbeIsDue() {
        when(phala.getCvm("x")).thenThrow(status(502));
        assertThatThrownBy(() -> client.getCvm("x")).isInstanceOf(PhalaApiException.class).isNotInstanceOf(PhalaUnreachable.class);
        assertThat(circuit.open()).get().satisfies(open -> {
            assertThat(open.since()).isEqualTo(clock.instant());
            assertThat(open.nextProbeAt()).isEqualTo(clock.instant().plusSeconds(5));
            assertThat(open.describe()).contains("Phala Cloud unreachable since").contains("502");
        });

        clock.advance(Duration.ofSeconds(4));
        assertThatThrownBy(() -> client.getCvm("x")).isInstanceOf(PhalaUnreachable.class)
                .satisfies(e -> assertThat(((PhalaApiException) e).status()).isEqualTo(503));
        verify(phala, times(1)).getCvm("x");

        clock.advance(Duration.ofSeconds(1));
        assertThatThrownBy(() -> client.getCvm("x")).isNotInstanceOf(PhalaUnreachable.class);
        verify(phala, times(2)).getCvm("x");
        assertThat(circuit.open()).get().extracting(PhalaCircuit.Open::nextProbeAt).as("the wait doubles")
                .isEqualTo(clock.instant().plusSeconds(10));
        for (int i = 0; i < 5; i++) {
            clock.advance(Duration.ofSeconds(31));
            assertThatThrownBy(() -> client.getCvm("x")).isNotInstanceOf(PhalaUnreachable.class);
        }
        assertThat(circuit.open()).get().extracting(PhalaCircuit.Open::nextProbeAt).as("up to its cap")
                .isEqualTo(clock.instant().plusSeconds(30));
    }

    @Test
    void anAnswerClosesItAndTellsTheListenersARefusalIsAnAnswerToo() {
        AtomicInteger woken = new AtomicInteger();
        circuit.onClose(woken::incrementAndGet);
        circuit.failed(status(0));
        assertThat(circuit.unreachableWithin(Duration.ofMinutes(1))).isTrue();
        assertThat(circuit.deadlinesHeldUntil()).as("while open, a deadline is paused like a step").isEmpty();

        clock.advance(Duration.ofSeconds(5));
        when(phala.getCvm("x")).thenThrow(status(404));
        assertThatThrownBy(() -> client.getCvm("x")).isInstanceOf(PhalaApiException.class);
        assertThat(circuit.open()).isEmpty();
        assertThat(woken).hasValue(1);
        assertThat(circuit.unreachableWithin(Duration.ofMinutes(1))).as("it was, a moment ago").isTrue();
        assertThat(circuit.deadlinesHeldUntil()).as("deadlines get back the 5 s the outage took")
                .contains(clock.instant().plusSeconds(5));
        clock.advance(Duration.ofSeconds(5));
        assertThat(circuit.deadlinesHeldUntil()).isEmpty();
        clock.advance(Duration.ofMinutes(2));
        assertThat(circuit.unreachableWithin("PT1M")).isFalse();

        CvmInfo cvm = PhalaEffectsTest.cvm("running", false, PhalaEffectsTest.OLD);
        when(phala.getCvm("y")).thenReturn(cvm);
        assertThat(client.getCvm("y")).isSameAs(cvm);
        assertThat(woken).as("closing a closed circuit wakes nobody").hasValue(1);
    }

    @Test
    void onlyOneCallIsTheProbe() {
        circuit.failed(status(503));
        clock.advance(Duration.ofSeconds(5));
        circuit.beforeCall("getCvm");
        assertThatThrownBy(() -> circuit.beforeCall("getApp")).isInstanceOf(PhalaUnreachable.class);
        circuit.failed(status(504));
        clock.advance(Duration.ofSeconds(10));
        circuit.beforeCall("getApp");
    }

    /**
     * A compose PATCH answered 503 once was not repeated by the client (it may have acted): one answer is no outage.
     * Opening the circuit on it paused every procedure of the node for each such answer (SoakTest: none completed).
     */
    @Test
    void aFailedCallTheClientMayNotRepeatLeavesTheCircuitAsItIs() {
        PhalaApiException patch = new PhalaApiException(503, null, "unavailable", null, "PATCH", "/cvms/x/docker-compose", null);
        assertThat(patch.isOutcomeUnknown()).isTrue();
        circuit.failed(patch);
        assertThat(circuit.open()).as("not opened").isEmpty();
        circuit.failed(status(503));
        circuit.failed(patch);
        assertThat(circuit.open()).as("not closed either").isPresent();
    }

    @Test
    void whatIsNotAnOutageDoesNotOpenIt() {
        circuit.failed(status(409));
        circuit.failed(status(400));
        circuit.failed(status(465));
        assertThat(circuit.open()).isEmpty();
        for (int outage : new int[] {0, 429, 500, 502, 503, 504}) {
            assertThat(PhalaOutage.isOutage(status(outage))).as(String.valueOf(outage)).isTrue();
        }
        assertThat(PhalaOutage.in(new IllegalStateException("wrapped", status(500)))).isPresent();
        assertThat(PhalaOutage.in(new IllegalStateException("wrapped", status(404)))).isEmpty();
    }
}
