package com.statefulcvm.connectors.phala;

import feign.Response;
import feign.RetryableException;
import feign.codec.ErrorDecoder;
import java.io.IOException;
import java.io.InputStream;
import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.Map;

/**
 * Turns every non-2xx answer into a {@link PhalaApiException}. The retryable ones are wrapped in Feign's
 * {@link RetryableException} only so that Feign hands them to {@link PhalaRetryer}, which unwraps them again.
 */
final class PhalaErrorDecoder implements ErrorDecoder {

    private static final int MAX_BODY_BYTES = 64 * 1024;

    private final String baseUrl;
    private final Clock clock;

    PhalaErrorDecoder(String baseUrl, Clock clock) {
        this.baseUrl = baseUrl;
        this.clock = clock;
    }

    @Override
    public Exception decode(String methodKey, Response response) {
        PhalaApiException error = toApiException(response);
        if (!error.isRetryable()) {
            return error;
        }
        return new RetryableException(response.status(), error.getMessage(),
                response.request().httpMethod(), error, (Long) null, response.request());
    }

    PhalaApiException toApiException(Response response) {
        int status = response.status();
        ApiErrorBody body = ApiErrorBody.parse(status, readBody(response));
        Duration retryAfter = RetryAfter.parse(firstHeader(response, "Retry-After"), clock).orElse(null);
        String method = response.request().httpMethod().name();
        String path = RequestPaths.relative(baseUrl, response.request().url());
        return new PhalaApiException(status, body.errorCode(), body.message(), retryAfter, method, path, body.fields(),
                true, null);
    }

    private static byte[] readBody(Response response) {
        if (response.body() == null) {
            return new byte[0];
        }
        try (InputStream in = response.body().asInputStream()) {
            return in.readNBytes(MAX_BODY_BYTES);
        } catch (IOException e) {
            // The status alone still makes a useful error.
            return new byte[0];
        }
    }

    private static String firstHeader(Response response, String name) {
        Collection<String> values = response.headers().get(name);
        if (values == null) {
            // Feign's header map is case-insensitive, but do not rely on every client building it so.
            values = response.headers().entrySet().stream()
                    .filter(e -> e.getKey() != null && e.getKey().equalsIgnoreCase(name))
                    .map(Map.Entry::getValue)
                    .findFirst().orElse(null);
        }
        return values == null || values.isEmpty() ? null : values.iterator().next();
    }
}
