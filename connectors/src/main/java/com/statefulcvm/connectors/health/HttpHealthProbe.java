package com.statefulcvm.connectors.health;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * A GET against a workload's health URL: healthy when the answer has the expected status. Every network failure
 * becomes an unhealthy result, because for a rollout "no answer" is a fact to wait on, not an error.
 */
public final class HttpHealthProbe implements HealthProbe {

    private final HttpClient client;

    public HttpHealthProbe() {
        this(HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .followRedirects(HttpClient.Redirect.NEVER)
                .build());
    }

    public HttpHealthProbe(HttpClient client) {
        this.client = Objects.requireNonNull(client, "client");
    }

    @Override
    public ProbeResult probe(URI url, int expectStatus, Duration timeout) {
        HttpRequest request = request(url, timeout);
        long start = System.nanoTime();
        try {
            return answered(client.send(request, HttpResponse.BodyHandlers.discarding()), expectStatus, since(start));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new ProbeResult(false, ProbeResult.NO_ANSWER, "probe interrupted", since(start));
        } catch (IOException | RuntimeException e) {
            return new ProbeResult(false, ProbeResult.NO_ANSWER, describe(e, timeout), since(start));
        }
    }

    /** The JDK client's own asynchronous send: no thread waits for the answer. */
    @Override
    public CompletableFuture<ProbeResult> probeAsync(URI url, int expectStatus, Duration timeout) {
        HttpRequest request = request(url, timeout);
        long start = System.nanoTime();
        return client.sendAsync(request, HttpResponse.BodyHandlers.discarding())
                .handle((response, failure) -> failure == null ? answered(response, expectStatus, since(start))
                        : new ProbeResult(false, ProbeResult.NO_ANSWER, describe(unwrapped(failure), timeout), since(start)));
    }

    private static HttpRequest request(URI url, Duration timeout) {
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.isZero() || timeout.isNegative()) {
            throw new IllegalArgumentException("timeout must be positive, was " + timeout);
        }
        return HttpRequest.newBuilder(url)
                .GET()
                // The request timeout also bounds connecting, so one value caps the whole probe.
                .timeout(timeout)
                .header("Accept", "*/*")
                .build();
    }

    private static ProbeResult answered(HttpResponse<Void> response, int expectStatus, Duration latency) {
        int status = response.statusCode();
        if (status == expectStatus) {
            return new ProbeResult(true, status, "HTTP " + status, latency);
        }
        return new ProbeResult(false, status, "expected HTTP " + expectStatus + " but got " + status, latency);
    }

    private static Exception unwrapped(Throwable failure) {
        Throwable t = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
        return t instanceof Exception e ? e : new RuntimeException(t);
    }

    private static String describe(Exception e, Duration timeout) {
        return NoAnswer.named(e, timeout).orElseGet(() -> "no answer: " + NoAnswer.unnamed(e));
    }

    private static Duration since(long startNanos) {
        return Duration.ofNanos(System.nanoTime() - startNanos);
    }
}
