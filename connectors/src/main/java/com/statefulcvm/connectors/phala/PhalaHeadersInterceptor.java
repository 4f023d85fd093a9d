package com.statefulcvm.connectors.phala;

import feign.RequestInterceptor;
import feign.RequestTemplate;

/**
 * Adds the headers the SDK's client sends with every call ({@code X-Phala-Version}, {@code Content-Type:
 * application/json} unless the call sets its own, {@code X-API-Key} when there is a key).
 */
final class PhalaHeadersInterceptor implements RequestInterceptor {

    static final String API_KEY = "X-API-Key";
    /** Ours, so that a request journal (the simulator's) can tell this client's requests from others'. */
    static final String USER_AGENT = "stateful-cvm-orchestrator/phala-client";
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
        // the compose update sends text/yaml; a second Content-Type would make the request ambiguous
        if (template.headers().keySet().stream().noneMatch("Content-Type"::equalsIgnoreCase)) {
            template.header("Content-Type", JSON);
        }
        template.header("Accept", JSON);
        template.header("User-Agent", USER_AGENT);
    }

    @Override
    public String toString() {
        // Keeps the key out of any dump of the Feign configuration.
        return "PhalaHeadersInterceptor[apiVersion=" + apiVersion + ", apiKey=" + (apiKey == null ? "<none>" : "****") + "]";
    }
}
