package com.statefulcvm.connectors.phala;

import feign.RequestInterceptor;
import feign.RequestTemplate;

/** Adds the headers every Phala Cloud call needs. */
final class PhalaHeadersInterceptor implements RequestInterceptor {

    static final String API_KEY = "X-API-Key";
    static final String API_VERSION = "X-Phala-Version";
    private static final String JSON = "application/json";

    private final String apiKey;
    private final String apiVersion;

    PhalaHeadersInterceptor(PhalaCloudSettings settings) {
        this.apiKey = settings.hasApiKey() ? settings.apiKey().trim() : null;
        this.apiVersion = settings.apiVersion();
    }

    @Override
    public void apply(RequestTemplate template) {
        if (apiKey != null) {
            template.header(API_KEY, apiKey);
        }
        template.header(API_VERSION, apiVersion);
        template.header("Content-Type", JSON);
        template.header("Accept", JSON);
    }

    @Override
    public String toString() {
        // Keeps the key out of any dump of the Feign configuration.
        return "PhalaHeadersInterceptor[apiVersion=" + apiVersion + ", apiKey=" + (apiKey == null ? "<none>" : "****") + "]";
    }
}
