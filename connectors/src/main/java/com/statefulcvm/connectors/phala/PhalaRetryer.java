package com.statefulcvm.connectors.phala;

import feign.Request;
import feign.RetryableException;
import feign.Retryer;
import java.net.ConnectException;
import java.net.http.HttpConnectTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.time.Duration;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Retries what {@link PhalaApiException#isRetryable()} calls transient, waiting the server's Retry-After (when it is
 * no longer than the settings' cap; a longer one ends the attempts) or an exponential backoff. A call that changes
 * something and may have reached the service (a 5xx, a timeout after sending) is never repeated here: the exception
 * says {@link PhalaApiException#isOutcomeUnknown()} and the caller reads back first. When it gives up it throws the
 * {@link PhalaApiException} of the last attempt, so callers never see Feign's exception types. Feign clones one
 * instance per call, so the attempt counter is per call.
 */
final class PhalaRetryer implements Retryer {

    private static final Logger LOG = LoggerFactory.getLogger(PhalaRetryer.class);

    private final RetrySettings settings;
    private final String baseUrl;
    private final Sleeper sleeper;
    private final PhalaCallObserver observer;
    private int attempt = 1;

    PhalaRetryer(RetrySettings settings, String baseUrl, Sleeper sleeper) {
        this(settings, baseUrl, sleeper, PhalaCallObserver.NONE);
    }

    PhalaRetryer(RetrySettings settings, String baseUrl, Sleeper sleeper, PhalaCallObserver observer) {
        this.settings = settings;
        this.baseUrl = baseUrl;
        this.sleeper = sleeper;
        this.observer = observer;
    }

    @Override
    public void continueOrPropagate(RetryableException e) {
        PhalaApiException error = unwrap(e);
        if (!error.isRetryable() || attempt >= settings.maxAttempts()) {
            throw error;
        }
        Optional<Duration> retryAfter = error.retryAfter();
        if (retryAfter.isPresent() && !settings.waitsFor(retryAfter.get())) {
            LOG.info("Phala Cloud API {} {} asks to wait {} s (Retry-After), longer than this client waits; giving up: {}",
                    error.method(), error.path(), retryAfter.get().toSeconds(), error.getMessage());
            throw error;
        }
        observer.retried(e.hasRequest() ? ObservedClient.operation(e.request()) : "unknown", error.status());
        Duration wait = retryAfter.orElseGet(() -> settings.backoff(attempt - 1));
        LOG.info("Retrying Phala Cloud API {} {} in {} ms after attempt {}/{}: {}", error.method(), error.path(),
                wait.toMillis(), attempt, settings.maxAttempts(), error.getMessage());
        try {
            sleeper.sleep(wait);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            error.addSuppressed(interrupted);
            throw error;
        }
        attempt++;
    }

    @Override
    public Retryer clone() {
        return new PhalaRetryer(settings, baseUrl, sleeper, observer);
    }

    private PhalaApiException unwrap(RetryableException e) {
        if (e.getCause() instanceof PhalaApiException apiError) {
            return apiError;
        }
        // Anything else Feign marks retryable is an I/O failure: no HTTP answer at all.
        Request request = e.hasRequest() ? e.request() : null;
        String method = e.method() != null ? e.method().name() : request != null ? request.httpMethod().name() : "?";
        String path = request != null ? RequestPaths.relative(baseUrl, request.url()) : "?";
        Throwable cause = e.getCause() != null ? e.getCause() : e;
        return PhalaApiException.noResponse(method, path, !neverConnected(cause), cause);
    }

    /** The connection was never made, so the request cannot have reached the service. */
    private static boolean neverConnected(Throwable cause) {
        for (Throwable t = cause; t != null; t = t.getCause()) {
            if (t instanceof ConnectException || t instanceof HttpConnectTimeoutException
                    || t instanceof UnresolvedAddressException) {
                return true;
            }
        }
        return false;
    }
}
