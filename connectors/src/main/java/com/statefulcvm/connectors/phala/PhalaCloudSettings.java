package com.statefulcvm.connectors.phala;

import java.time.Duration;

/**
 * Connection settings of the Phala Cloud client. Null components take the defaults, so callers (and Spring property
 * binding) can leave out what they do not care about.
 *
 * <p>{@link #toString()} masks the API key: settings end up in logs and exception messages.
 */
public record PhalaCloudSettings(
        String baseUrl,
        String apiKey,
        String apiVersion,
        Duration connectTimeout,
        Duration readTimeout,
        RetrySettings retry) {

    public static final String DEFAULT_BASE_URL = "https://cloud-api.phala.com/api/v1";
    /**
     * The version the official SDK {@code @phala/cloud} 0.2.9 sends by default ({@code DEFAULT_API_VERSION} in its
     * {@code client.ts}; it speaks 2025-10-28 and 2026-01-21 only), so every answer has a schema in that SDK to check
     * it against. The Terraform provider sends 2026-05-22 (hashed ids in every answer), which that SDK cannot read.
     */
    public static final String DEFAULT_API_VERSION = "2026-01-21";
    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(30);
    public static final Duration DEFAULT_READ_TIMEOUT = Duration.ofSeconds(30);

    public PhalaCloudSettings {
        baseUrl = isBlank(baseUrl) ? DEFAULT_BASE_URL : stripTrailingSlashes(baseUrl.trim());
        apiVersion = isBlank(apiVersion) ? DEFAULT_API_VERSION : apiVersion.trim();
        connectTimeout = positive(connectTimeout, DEFAULT_CONNECT_TIMEOUT, "connectTimeout");
        readTimeout = positive(readTimeout, DEFAULT_READ_TIMEOUT, "readTimeout");
        retry = retry == null ? RetrySettings.defaults() : retry;
    }

    public static PhalaCloudSettings of(String baseUrl, String apiKey) {
        return new PhalaCloudSettings(baseUrl, apiKey, null, null, null, null);
    }

    public PhalaCloudSettings withRetry(RetrySettings newRetry) {
        return new PhalaCloudSettings(baseUrl, apiKey, apiVersion, connectTimeout, readTimeout, newRetry);
    }

    public PhalaCloudSettings withTimeouts(Duration newConnectTimeout, Duration newReadTimeout) {
        return new PhalaCloudSettings(baseUrl, apiKey, apiVersion, newConnectTimeout, newReadTimeout, retry);
    }

    public boolean hasApiKey() {
        return !isBlank(apiKey);
    }

    @Override
    public String toString() {
        return "PhalaCloudSettings[baseUrl=" + baseUrl
                + ", apiKey=" + (hasApiKey() ? "****" : "<none>")
                + ", apiVersion=" + apiVersion
                + ", connectTimeout=" + connectTimeout
                + ", readTimeout=" + readTimeout
                + ", retry=" + retry + "]";
    }

    private static boolean isBlank(String s) {
        return s == null || s.isBlank();
    }

    private static String stripTrailingSlashes(String url) {
        String result = url;
        while (result.endsWith("/")) {
            result = result.substring(0, result.length() - 1);
        }
        return result;
    }

    private static Duration positive(Duration value, Duration fallback, String name) {
        if (value == null) {
            return fallback;
        }
        if (value.isZero() || value.isNegative()) {
            throw new IllegalArgumentException(name + " must be positive, was " + value);
        }
        return value;
    }
}
