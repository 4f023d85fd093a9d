package com.statefulcvm.connectors.phala;

import feign.Client;
import feign.Request;
import feign.Response;

import java.io.IOException;
import java.time.Duration;

/** The HTTP client with every attempt reported to a {@link PhalaCallObserver}: its operation, status and time. */
final class ObservedClient implements Client {

    private final Client delegate;
    private final PhalaCallObserver observer;

    ObservedClient(Client delegate, PhalaCallObserver observer) {
        this.delegate = delegate;
        this.observer = observer;
    }

    @Override
    public Response execute(Request request, Request.Options options) throws IOException {
        long started = System.nanoTime();
        int status = 0;
        try {
            Response response = delegate.execute(request, options);
            status = response.status();
            return response;
        } finally {
            observer.exchanged(operation(request), status, Duration.ofNanos(System.nanoTime() - started));
        }
    }

    /** "getApp" from Feign's config key "PhalaCloudApi#getApp(String)": the URL holds ids, the method name does not. */
    static String operation(Request request) {
        if (request == null || request.requestTemplate() == null || request.requestTemplate().methodMetadata() == null) {
            return "unknown";
        }
        String key = request.requestTemplate().methodMetadata().configKey();
        int hash = key.indexOf('#');
        int paren = key.indexOf('(');
        return hash >= 0 && paren > hash ? key.substring(hash + 1, paren) : key;
    }
}
